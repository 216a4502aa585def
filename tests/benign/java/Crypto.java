import java.nio.charset.StandardCharsets;
import java.security.*;
import java.security.spec.*;
import java.util.*;
import javax.crypto.*;
import javax.crypto.spec.*;

public class Main {
    static String hex(byte[] b) { return HexFormat.of().formatHex(b); }

    public static void main(String[] args) throws Exception {
        byte[] msg = "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.UTF_8);
        String sha256 = hex(MessageDigest.getInstance("SHA-256").digest(msg));
        if (!sha256.equals("d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592")) throw new AssertionError(sha256);
        String md5 = hex(MessageDigest.getInstance("MD5").digest(msg));
        if (!md5.equals("9e107d9d372bb6826bd81d3542a419d6")) throw new AssertionError(md5);
        String sha1 = hex(MessageDigest.getInstance("SHA-1").digest(msg));
        if (!sha1.equals("2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")) throw new AssertionError(sha1);
        MessageDigest sha512 = MessageDigest.getInstance("SHA-512");
        sha512.update(msg, 0, 10);
        sha512.update(msg, 10, msg.length - 10);
        if (!Arrays.equals(sha512.digest(), MessageDigest.getInstance("SHA-512").digest(msg))) throw new AssertionError("incremental");
        MessageDigest.getInstance("SHA3-256").digest(msg);

        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("key".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String hmac = hex(mac.doFinal(msg));
        if (!hmac.equals("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")) throw new AssertionError(hmac);

        Base64.Encoder enc = Base64.getEncoder();
        if (!enc.encodeToString("hello?>".getBytes(StandardCharsets.UTF_8)).equals("aGVsbG8/Pg==")) throw new AssertionError("b64");
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString("hello?>".getBytes(StandardCharsets.UTF_8)).equals("aGVsbG8_Pg"))
            throw new AssertionError("b64url");
        if (!new String(Base64.getDecoder().decode("aGVsbG8/Pg=="), StandardCharsets.UTF_8).equals("hello?>")) throw new AssertionError("b64 decode");
        if (Base64.getMimeEncoder().encodeToString(new byte[100]).split("\r\n").length != 2) throw new AssertionError("mime");

        SecureRandom sr = new SecureRandom();
        byte[] rnd = new byte[32];
        sr.nextBytes(rnd);
        byte[] rnd2 = new byte[32];
        SecureRandom.getInstanceStrong().nextBytes(rnd2);
        if (Arrays.equals(rnd, rnd2) || Arrays.equals(rnd, new byte[32])) throw new AssertionError("random");
        UUID u = UUID.randomUUID();
        if (u.version() != 4) throw new AssertionError("uuid");
        if (!UUID.nameUUIDFromBytes("x".getBytes()).toString().equals("9dd4e461-268c-3034-b5c8-564e155c67a6")) throw new AssertionError("uuid3");

        KeyGenerator kg = KeyGenerator.getInstance("AES");
        kg.init(256);
        SecretKey key = kg.generateKey();
        byte[] iv = new byte[12];
        sr.nextBytes(iv);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
        c.updateAAD("header".getBytes());
        byte[] ct = c.doFinal(msg);
        Cipher d = Cipher.getInstance("AES/GCM/NoPadding");
        d.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, iv));
        d.updateAAD("header".getBytes());
        if (!Arrays.equals(d.doFinal(ct), msg)) throw new AssertionError("gcm");
        ct[0] ^= 1;
        d.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, iv));
        d.updateAAD("header".getBytes());
        try { d.doFinal(ct); throw new AssertionError("tamper"); } catch (AEADBadTagException expected) { }

        Cipher cbc = Cipher.getInstance("AES/CBC/PKCS5Padding");
        SecretKeySpec fixed = new SecretKeySpec(new byte[16], "AES");
        cbc.init(Cipher.ENCRYPT_MODE, fixed, new IvParameterSpec(new byte[16]));
        if (!hex(cbc.doFinal(new byte[0])).equals("0143db63ee66b0cdff9f69917680151e")) throw new AssertionError("cbc");

        SecretKeyFactory pbkdf = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
        byte[] dk = pbkdf.generateSecret(new PBEKeySpec("password".toCharArray(), "salt".getBytes(), 1, 256)).getEncoded();
        if (!hex(dk).equals("120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")) throw new AssertionError(hex(dk));

        KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC");
        kpg.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair kp = kpg.generateKeyPair();
        Signature s = Signature.getInstance("SHA256withECDSA");
        s.initSign(kp.getPrivate());
        s.update(msg);
        byte[] sig = s.sign();
        s.initVerify(kp.getPublic());
        s.update(msg);
        if (!s.verify(sig)) throw new AssertionError("ecdsa");
        System.out.println("sha256 " + sha256.substring(0, 16));
        System.out.println("OK");
    }
}

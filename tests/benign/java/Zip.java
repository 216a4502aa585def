import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.zip.*;

public class Main {
    public static void main(String[] args) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) sb.append("line ").append(i % 17).append(" of a repetitive text\n");
        byte[] raw = sb.toString().getBytes(StandardCharsets.UTF_8);

        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) { out.write(raw); }
        if (gz.size() >= raw.length / 10) throw new AssertionError("gzip ratio " + gz.size());
        byte[] back;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.toByteArray()))) { back = in.readAllBytes(); }
        if (!Arrays.equals(raw, back)) throw new AssertionError("gunzip");

        Deflater def = new Deflater(Deflater.BEST_COMPRESSION);
        def.setInput(raw);
        def.finish();
        byte[] buf = new byte[raw.length];
        int clen = def.deflate(buf);
        def.end();
        Inflater inf = new Inflater();
        inf.setInput(buf, 0, clen);
        byte[] out2 = new byte[raw.length];
        int n = inf.inflate(out2);
        inf.end();
        if (n != raw.length || !Arrays.equals(raw, out2)) throw new AssertionError("inflate");

        CRC32 crc = new CRC32();
        crc.update("hello world".getBytes(StandardCharsets.US_ASCII));
        if (crc.getValue() != 0x0d4a1185L) throw new AssertionError("crc " + Long.toHexString(crc.getValue()));
        Adler32 ad = new Adler32();
        ad.update("hello world".getBytes(StandardCharsets.US_ASCII));
        if (ad.getValue() != 0x1a0b045dL) throw new AssertionError("adler " + Long.toHexString(ad.getValue()));

        Path zip = Paths.get("archive.zip");
        try (ZipOutputStream zos = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (String name : List.of("a.txt", "dir/b.txt", "dir/c.bin")) {
                zos.putNextEntry(new ZipEntry(name));
                zos.write((name + " contents").getBytes(StandardCharsets.UTF_8));
                zos.closeEntry();
            }
        }
        List<String> names = new ArrayList<>();
        try (ZipInputStream zis = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = zis.getNextEntry()) != null; ) {
                String content = new String(zis.readAllBytes(), StandardCharsets.UTF_8);
                if (!content.equals(e.getName() + " contents")) throw new AssertionError(content);
                names.add(e.getName());
            }
        }
        if (!names.equals(List.of("a.txt", "dir/b.txt", "dir/c.bin"))) throw new AssertionError(names.toString());
        try (ZipFile zf = new ZipFile(zip.toFile())) {
            ZipEntry e = zf.getEntry("dir/b.txt");
            try (InputStream in = zf.getInputStream(e)) {
                if (!new String(in.readAllBytes(), StandardCharsets.UTF_8).equals("dir/b.txt contents")) throw new AssertionError("zipfile");
            }
            if (zf.size() != 3) throw new AssertionError("entries");
        }
        try (FileSystem zfs = FileSystems.newFileSystem(zip)) {
            if (!Files.readString(zfs.getPath("/a.txt")).equals("a.txt contents")) throw new AssertionError("zipfs");
        }
        Files.delete(zip);
        System.out.println("raw " + raw.length + " gzip " + gz.size());
        System.out.println("OK");
    }
}

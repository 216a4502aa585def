// crypto: sha256/sha512/sha1/md5, hmac, crypto/rand, AES-GCM and ed25519.
package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"os"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	sum := sha256.Sum256([]byte("abc"))
	check(hex.EncodeToString(sum[:]) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256")
	h := sha256.New()
	for i := 0; i < 1000; i++ {
		io.WriteString(h, "a")
	}
	s2 := sha256.Sum256(bytes.Repeat([]byte("a"), 1000))
	check(bytes.Equal(h.Sum(nil), s2[:]), "streaming sha256")
	s512 := sha512.Sum512([]byte(""))
	check(hex.EncodeToString(s512[:4]) == "cf83e135", "sha512")
	check(fmt.Sprintf("%x", sha1.Sum([]byte("abc"))) == "a9993e364706816aba3e25717850c26c9cd0d89d", "sha1")
	check(fmt.Sprintf("%x", md5.Sum([]byte(""))) == "d41d8cd98f00b204e9800998ecf8427e", "md5")

	mac := hmac.New(sha256.New, []byte("key"))
	mac.Write([]byte("The quick brown fox jumps over the lazy dog"))
	tag := mac.Sum(nil)
	check(hex.EncodeToString(tag) == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8", "hmac")
	check(hmac.Equal(tag, append([]byte{}, tag...)), "hmac equal")

	// crypto/rand reads the kernel's getrandom
	r1 := make([]byte, 32)
	r2 := make([]byte, 32)
	_, err := rand.Read(r1)
	check(err == nil, "rand")
	rand.Read(r2)
	check(!bytes.Equal(r1, r2), "random differs")
	n, err := rand.Int(rand.Reader, big.NewInt(1000))
	check(err == nil && n.Int64() >= 0 && n.Int64() < 1000, "rand int")

	// AES-GCM encrypt/decrypt
	key := make([]byte, 32)
	rand.Read(key)
	block, err := aes.NewCipher(key)
	check(err == nil, "aes")
	gcm, err := cipher.NewGCM(block)
	check(err == nil, "gcm")
	nonce := make([]byte, gcm.NonceSize())
	rand.Read(nonce)
	ct := gcm.Seal(nil, nonce, []byte("attack at dawn"), []byte("aad"))
	pt, err := gcm.Open(nil, nonce, ct, []byte("aad"))
	check(err == nil && string(pt) == "attack at dawn", "gcm open")
	ct[0] ^= 1
	_, err = gcm.Open(nil, nonce, ct, []byte("aad"))
	check(err != nil, "tamper detected")

	// ed25519
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	check(err == nil, "keygen")
	sig := ed25519.Sign(priv, []byte("msg"))
	check(ed25519.Verify(pub, []byte("msg"), sig) && !ed25519.Verify(pub, []byte("msh"), sig), "verify")
	fmt.Println("OK")
}

# Digest, OpenSSL HMAC, SecureRandom, seeded Random, Base64, pack/unpack, and secure comparison.
require "digest"
require "openssl"
require "securerandom"
require "base64"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

check Digest::SHA256.hexdigest("hello world") == "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9", "sha256"
check Digest::MD5.hexdigest("hello world") == "5eb63bbbe01eeed093cb22bb8f5acdc3", "md5"
check Digest::SHA1.hexdigest("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709", "sha1"
check Digest::SHA512.hexdigest("abc").start_with?("ddaf35a193617aba") && Digest::SHA384.digest("abc").bytesize == 48, "sha512/384"
inc = Digest::SHA256.new
%w[hello _ world].each { inc.update(_1) }
check inc.hexdigest == Digest::SHA256.hexdigest("hello_world"), "incremental"
File.write("payload.bin", "x" * 100_000)
check Digest::SHA256.file("payload.bin").hexdigest == Digest::SHA256.hexdigest("x" * 100_000), "file digest"
check Digest::SHA256.base64digest("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "base64digest"
check OpenSSL::HMAC.hexdigest("SHA256", "key", "The quick brown fox jumps over the lazy dog") ==
      "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8", "HMAC"
check OpenSSL::Digest.new("SHA256").hexdigest("abc").start_with?("ba7816bf"), "OpenSSL::Digest"
key = OpenSSL::PKCS5.pbkdf2_hmac("pw", "salt", 1000, 32, "sha256")
check key.bytesize == 32 && key.unpack1("H*") == OpenSSL::PKCS5.pbkdf2_hmac("pw", "salt", 1000, 32, "sha256").unpack1("H*"), "pbkdf2"
cipher = OpenSSL::Cipher.new("aes-256-gcm").encrypt
k = cipher.random_key
iv = cipher.random_iv
ct = cipher.update("secret message") + cipher.final
tag = cipher.auth_tag
dec = OpenSSL::Cipher.new("aes-256-gcm").decrypt
dec.key = k
dec.iv = iv
dec.auth_tag = tag
check dec.update(ct) + dec.final == "secret message", "AES-GCM round-trip"
check OpenSSL.fixed_length_secure_compare("a" * 32, "a" * 32) && !OpenSSL.secure_compare("a", "b"), "secure compare"

hex = SecureRandom.hex(16)
check hex.match?(/\A\h{32}\z/) && SecureRandom.hex(16) != hex, "SecureRandom.hex"
check SecureRandom.uuid.match?(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/), "uuid v4"
check SecureRandom.random_bytes(64).bytesize == 64 && SecureRandom.urlsafe_base64(24).match?(/\A[\w-]+\z/), "bytes/urlsafe"
check (1..100).map { SecureRandom.random_number(10) }.all? { (0...10).cover?(_1) } && SecureRandom.alphanumeric(12).size == 12, "random_number"
check Random.urandom(8).bytesize == 8 && Random.new_seed.is_a?(Integer), "urandom"
r1 = Random.new(42)
r2 = Random.new(42)
seq = Array.new(5) { r1.rand(1000) }
check seq == Array.new(5) { r2.rand(1000) }, "seeded Random"
check [1, 2, 3, 4, 5].shuffle(random: Random.new(7)) == [1, 2, 3, 4, 5].shuffle(random: Random.new(7)), "seeded shuffle"
srand(123)
a = rand
srand(123)
check rand == a && rand(1.0..2.0).between?(1.0, 2.0), "Kernel#srand"
check Random.new(1).bytes(4).bytesize == 4, "Random#bytes"

bin = (0..255).map(&:chr).join.b
check Base64.decode64(Base64.encode64(bin)) == bin && Base64.strict_encode64("hi") == "aGk=", "Base64"
check Base64.urlsafe_encode64("\xff\xfe\xfd".b, padding: false) == "__79" && Base64.urlsafe_decode64("__79") == "\xff\xfe\xfd".b, "urlsafe"
check (Base64.strict_decode64("not base64!") rescue ArgumentError) == ArgumentError, "strict decode error"
check ["hello"].pack("m0") == "aGVsbG8=" && "aGVsbG8=".unpack1("m0") == "hello", "pack m0"
check [1, 2, 65_535].pack("CnN").bytes == [1, 0, 2, 0, 0, 255, 255] && "\x00\x00\x01\x00".unpack1("L<") == 65_536, "pack ints"
check "hello".unpack1("H*") == "68656c6c6f" && ["68656c6c6f"].pack("H*") == "hello", "hex"
check [3.5].pack("E").unpack1("E") == 3.5 && [1, 2].pack("s>l<").bytesize == 6, "pack floats/sizes"
check "abc".sum == 294 && "abc".crypt("ab").size == 13, "String#sum/crypt"
File.delete("payload.bin")
puts "OK"

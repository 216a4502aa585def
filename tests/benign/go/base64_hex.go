// encoding/base64, encoding/hex, encoding/binary and encoding/base32 round trips.
package main

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	data := []byte("hello, world\x00\xff\xfe")
	std := base64.StdEncoding.EncodeToString(data)
	check(std == "aGVsbG8sIHdvcmxkAP/+", "std "+std)
	check(base64.URLEncoding.EncodeToString(data) == "aGVsbG8sIHdvcmxkAP_-", "url")
	check(base64.RawStdEncoding.EncodeToString([]byte("ab")) == "YWI", "raw")
	dec, err := base64.StdEncoding.DecodeString(std)
	check(err == nil && bytes.Equal(dec, data), "decode")
	_, err = base64.StdEncoding.DecodeString("!!!")
	check(err != nil, "bad base64")
	// streaming encoder
	var buf bytes.Buffer
	enc := base64.NewEncoder(base64.StdEncoding, &buf)
	for i := 0; i < 1000; i++ {
		enc.Write([]byte{byte(i)})
	}
	enc.Close()
	round, err := base64.StdEncoding.DecodeString(buf.String())
	check(err == nil && len(round) == 1000 && round[999] == byte(999%256), "stream")

	h := hex.EncodeToString([]byte{0xde, 0xad, 0xbe, 0xef})
	check(h == "deadbeef", "hex")
	b, err := hex.DecodeString("CAFEbabe")
	check(err == nil && bytes.Equal(b, []byte{0xca, 0xfe, 0xba, 0xbe}), "unhex")
	_, err = hex.DecodeString("abc")
	check(err != nil, "odd hex")
	check(strings.Contains(hex.Dump([]byte("ABCDEFGHIJKLMNOPQ")), "41 42 43 44"), "dump")

	check(base32.StdEncoding.EncodeToString([]byte("foobar")) == "MZXW6YTBOI======", "base32")

	bb := make([]byte, 8)
	binary.BigEndian.PutUint32(bb, 0x01020304)
	binary.LittleEndian.PutUint32(bb[4:], 0x01020304)
	check(bytes.Equal(bb, []byte{1, 2, 3, 4, 4, 3, 2, 1}), "endian")
	vb := binary.AppendUvarint(nil, 300)
	v, n := binary.Uvarint(vb)
	check(v == 300 && n == 2, "varint")
	type hdr struct {
		Magic uint32
		Len   uint16
		Flags [2]uint8
	}
	var w bytes.Buffer
	check(binary.Write(&w, binary.BigEndian, hdr{0xCAFEBABE, 12, [2]uint8{1, 2}}) == nil, "binary write")
	var got hdr
	check(binary.Read(&w, binary.BigEndian, &got) == nil && got.Magic == 0xCAFEBABE && got.Flags[1] == 2, "binary read")
	fmt.Println("OK")
}

// unicode/utf8, unicode/utf16, unicode classes, runes vs bytes, strings.Builder with runes, invalid UTF-8 handling.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func main() {
	s := "Hello, 世界! Ωmega 🚀"
	check(len(s) == 26 && utf8.RuneCountInString(s) == 18, fmt.Sprint("lengths ", len(s), utf8.RuneCountInString(s)))
	check(utf8.ValidString(s) && !utf8.ValidString("\xff\xfe"), "valid")
	r, size := utf8.DecodeRuneInString("世界")
	check(r == '世' && size == 3, "decode")
	r, size = utf8.DecodeLastRuneInString(s)
	check(r == '🚀' && size == 4, "decode last")
	buf := make([]byte, 4)
	n := utf8.EncodeRune(buf, 'é')
	check(n == 2 && bytes.Equal(buf[:2], []byte{0xc3, 0xa9}), "encode")
	check(utf8.RuneLen('🚀') == 4 && utf8.AppendRune(nil, 'x')[0] == 'x', "runelen")
	// ranging over a string yields runes at byte offsets
	var offs []int
	for i, c := range "aé世" {
		offs = append(offs, i)
		_ = c
	}
	check(fmt.Sprint(offs) == "[0 1 3]", "range offsets")
	// invalid bytes decode as RuneError
	bad := "a\xffb"
	var rs []rune
	for _, c := range bad {
		rs = append(rs, c)
	}
	check(len(rs) == 3 && rs[1] == utf8.RuneError, "rune error")
	check(strings.ToValidUTF8(bad, "?") == "a?b", "tovalid")

	check(reverse("héllo, 世界") == "界世 ,olléh", "reverse")
	check(unicode.IsUpper('Ω') && unicode.ToLower('Ω') == 'ω' && unicode.IsLetter('界') && unicode.Is(unicode.Han, '界'), "classes")
	check(unicode.IsDigit('٣') && !unicode.IsDigit('x') && unicode.IsSpace('\u00a0') && unicode.IsPunct('!'), "digit space")
	check(strings.ToUpper("straße") == "STRASSE" || strings.ToUpper("straße") == "STRAßE", "upper sharp s")
	check(strings.EqualFold("ΣΊΣΥΦΟΣ", "σίσυφος"), "fold greek")
	u16 := utf16.Encode([]rune("a🚀"))
	check(len(u16) == 3 && u16[1] == 0xd83d && string(utf16.Decode(u16)) == "a🚀", "utf16")
	var sb strings.Builder
	for _, c := range []rune{'Ж', 'ю', '€'} {
		sb.WriteRune(c)
	}
	check(sb.String() == "Жю€" && sb.Len() == 7, "builder runes")
	check(strings.IndexRune(s, '界') == 10 && strings.ContainsRune(s, 'Ω'), "indexrune")
	title := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return unicode.ToUpper(r)
		}
		return -1
	}, "a1 b2 ç")
	check(title == "ABÇ", "map drop")
	fmt.Println("OK")
}

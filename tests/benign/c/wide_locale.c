/* Locale and wide characters under LANG=C.UTF-8: setlocale, multibyte <-> wide conversions,
 * wctype, wcwidth, wide formatting, iconv (UTF-8 -> UCS-4LE and WCHAR_T, conversions glibc has built in,
 * needing no gconv modules), printing UTF-8. */
#define _GNU_SOURCE
#include <iconv.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)

int main(void) {
    const char *loc = setlocale(LC_ALL, "");
    if (!loc) { fprintf(stderr, "setlocale(LC_ALL, \"\") failed with LANG=%s (is the C.utf8 locale in the image?)\n", getenv("LANG")); return 1; }
    CHECK(strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
    CHECK(MB_CUR_MAX == 6 || MB_CUR_MAX == 4);

    const char *utf8 = "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"; /* héllo wörld ✓ 日本 😀 */
    wchar_t w[64];
    size_t n = mbstowcs(w, utf8, 64);
    CHECK(n == 18 && w[1] == 0xE9 && w[14] == 0x65E5 && w[17] == 0x1F600);
    CHECK(wcslen(w) == 18 && strlen(utf8) == 29);
    int width = wcswidth(w, n);
    CHECK(wcwidth(L'a') == 1 && wcwidth(0x65E5) == 2 && width >= 20);
    CHECK(towupper(0xE9) == 0xC9 && towlower(L'Ö') == L'ö' && iswalpha(0x65E5) && !iswdigit(L'x') && iswspace(L' '));

    char back[64];
    CHECK(wcstombs(back, w, sizeof back) == 29 && strcmp(back, utf8) == 0);

    /* restartable conversions, one character at a time */
    mbstate_t st; memset(&st, 0, sizeof st);
    const char *p = utf8; size_t left = strlen(utf8); int chars = 0; wchar_t wc;
    while (left) { size_t k = mbrtowc(&wc, p, left, &st); CHECK(k != (size_t)-1 && k != (size_t)-2 && k > 0); p += k; left -= k; chars++; }
    CHECK(chars == 18);
    char mb[8]; memset(&st, 0, sizeof st);
    CHECK(wcrtomb(mb, 0x1F600, &st) == 4 && memcmp(mb, "\xf0\x9f\x98\x80", 4) == 0);
    CHECK(mbrtowc(&wc, "\xff", 1, &st) == (size_t)-1);  /* invalid UTF-8 */

    /* wide strings and formatting */
    wchar_t buf[64];
    swprintf(buf, 64, L"%ls=%d/%.2f", L"x\u00e9", 42, 1.5);
    CHECK(wcscmp(buf, L"x\u00e9=42/1.50") == 0);
    CHECK(wcstol(L"  -77z", NULL, 10) == -77 && wcschr(buf, L'=') == buf + 2 && wcsstr(buf, L"42") != NULL);
    wchar_t *save; wchar_t toks[] = L"a b\u00a0c"; int nt = 0;
    for (wchar_t *t = wcstok(toks, L" ", &save); t; t = wcstok(NULL, L" ", &save)) nt++;
    CHECK(nt == 2);
    CHECK(strcoll("a", "b") < 0 && wcscoll(L"a", L"b") < 0);
    struct lconv *lc = localeconv(); CHECK(strcmp(lc->decimal_point, ".") == 0);

    /* a per-thread locale */
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0); CHECK(c != (locale_t)0);
    locale_t prev = uselocale(c);
    CHECK(MB_CUR_MAX == 1);
    uselocale(prev); freelocale(c);
    CHECK(MB_CUR_MAX > 1);

    /* iconv */
    iconv_t cd = iconv_open("UCS-4LE", "UTF-8"); CHECK(cd != (iconv_t)-1);
    char in[] = "A\xc3\xa9\xe6\x97\xa5", out[16]; char *ip = in, *op = out; size_t il = strlen(in), ol = sizeof out;
    CHECK(iconv(cd, &ip, &il, &op, &ol) == 0 && il == 0 && sizeof out - ol == 12);
    CHECK(memcmp(out, "A\0\0\0\xe9\0\0\0\xe5\x65\0\0", 12) == 0);
    iconv_close(cd);
    cd = iconv_open("UTF-8", "WCHAR_T"); CHECK(cd != (iconv_t)-1);
    wchar_t wsrc[] = L"\u00fc\u2713"; char u8[16]; ip = (char *)wsrc; il = 2 * sizeof(wchar_t); op = u8; ol = sizeof u8;
    CHECK(iconv(cd, &ip, &il, &op, &ol) == 0 && sizeof u8 - ol == 5 && memcmp(u8, "\xc3\xbc\xe2\x9c\x93", 5) == 0);
    iconv_close(cd);

    printf("%s | %ls | width %d\n", utf8, L"\u00fcber \u2713", width);
    puts("OK");
    return 0;
}

/* profiles/java_scan.c: the file name and entry point of Java sources as
 * agents write them, and the lexer's corners (comments, literals, text
 * blocks, Unicode escapes) that could hide or fake a declaration. */
#include "java_scan.h"
#include "tap.h"

typedef struct
{
  const char *what, *src;
  const char *package, *public_type, *main_type, *file_type;
  size_t n_types;
} scan_case_t;

static const scan_case_t cases[] = {
    {"Main", "public class Main { public static void main(String[] a) {} }", "", "Main", "Main",
     "Main", 1},
    {"Solution",
     "import java.util.*;\n\npublic class Solution {\n  public static void main(String[] args) {\n"
     "    System.out.println(new ArrayList<>());\n  }\n}\n",
     "", "Solution", "Solution", "Solution", 1},
    {"HelloWorld with a helper class",
     "class Helper { static int f() { return 1; } }\npublic class HelloWorld {\n"
     "  public static void main(String... args) throws Exception { }\n}\n",
     "", "HelloWorld", "HelloWorld", "HelloWorld", 2},
    {"a package",
     "package com.example;\n\nimport java.util.List;\n\npublic final class App {\n"
     "  public static void main(final String[] args) {}\n}\n",
     "com.example", "App", "App", "App", 1},
    {"a package with comments inside its name",
     "package com . /* x */ example.app ;\npublic class App { static public void main(String[] a) "
     "{} }",
     "com.example.app", "App", "App", "App", 1},
    {"no public class: the one with main",
     "class Prog {\n  public static void main(String[] a) {}\n}\nclass Other {}\n", "", "", "Prog",
     "Prog", 2},
    {"the public class without main: main is another's",
     "public class Lib { void f() {} }\nclass Runner { public static void main(String[] a) {} }",
     "", "Lib", "Runner", "Lib", 2},
    {"no main anywhere", "public class Lib { public void main(String[] a) {} static int main; }",
     "", "Lib", "", "Lib", 1},
    {"no main, no public class", "class A {}\nclass B {}", "", "", "", "A", 2},
    {"nothing at all", "// just a comment\n", "", "", "", "", 0},
    {"a nested class's main does not count",
     "public class Outer { static class Inner { public static void main(String[] a) {} } }", "",
     "Outer", "", "Outer", 1},
    {"an instance main does not count", "public class I { public void main(String[] a) {} }", "",
     "I", "", "I", 1},
    {"main called, not declared",
     "public class C { static int x = main(1); static int main(int y) { return y; } }", "", "C", "",
     "C", 1},
    {"an interface's static main", "public interface Tool { static void main(String[] args) {} }",
     "", "Tool", "Tool", "Tool", 1},
    {"an enum with constants first",
     "public enum Color { RED, GREEN { void f() {} }; public static void main(String[] a) {} }", "",
     "Color", "Color", "Color", 1},
    {"a record (contextual keyword) with a header",
     "public record Point(int x, int y) implements Comparable<Point> {\n"
     "  public int compareTo(Point o) { return 0; }\n"
     "  public static void main(String[] a) {}\n}\n",
     "", "Point", "Point", "Point", 1},
    {"an annotation type, annotations with arguments",
     "@interface Tag { String value() default \"}\"; }\n@SuppressWarnings({\"unchecked\", \"x\"})\n"
     "@Tag(\"public class Fake {\")\npublic class Real {\n  @Deprecated(since = \"1\") public "
     "static void main(String[] a) {}\n}\n",
     "", "Real", "Real", "Real", 2},
    {"sealed and non-sealed",
     "public sealed class Shape permits Sq { public static void main(String[] a) {} }\n"
     "non-sealed class Sq extends Shape {}\n",
     "", "Shape", "Shape", "Shape", 2},
    {"generics and a throws clause",
     "public class G<T extends Comparable<? super T>> implements java.io.Serializable {\n"
     "  public static <U> void main(String[] a) throws java.io.IOException {}\n}\n",
     "", "G", "G", "G", 1},
    {"comments hide declarations",
     "/* public class Hidden { public static void main(String[] a) {} } */\n"
     "// public class Line {\npublic class Shown { /* } */ public static void main(String[] a) {} "
     "}\n",
     "", "Shown", "Shown", "Shown", 1},
    {"strings and chars hide braces",
     "public class S {\n  static String a = \"{ \\\" }\", b = \"\\\\\";\n  static char c = '{', d "
     "= '\\'', e = '}';\n"
     "  public static void main(String[] x) {}\n}\n",
     "", "S", "S", "S", 1},
    {"a text block hides a class",
     "public class T {\n  static String s = \"\"\"\n    }\n    public class Evil { \\\"\"\" }\n    "
     "\"\"\";\n"
     "  public static void main(String[] a) {}\n}\n",
     "", "T", "T", "T", 1},
    {"a Unicode escape ends a line comment",
     "// \\u000a public class Escaped { public static void main(String[] a) {} }\n", "", "Escaped",
     "Escaped", "Escaped", 1},
    {"a Unicode escape ends a block comment",
     "/* \\u002a/ public class B2 { public static void main(String[] a) {} } /* */", "", "B2", "B2",
     "B2", 1},
    {"escaped keywords and names",
     "p\\u0075blic cl\\uu0061ss M\\u00e4in { public static void m\\u0061in(String[] a) {} }", "",
     "M\xc3\xa4in", "M\xc3\xa4in", "M\xc3\xa4in", 1},
    {"a backslash before an escape is not one",
     "public class Q { static String s = \"\\\\u0022\"; public static void main(String[] a) {} }",
     "", "Q", "Q", "Q", 1},
    {"a name in another script",
     "public class \xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 { public static void "
     "main(String[] a) {} }",
     "", "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
     "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
     "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82", 1},
    {"a surrogate pair of escapes is one letter",
     "public class X\\ud801\\udc00 { public static void main(String[] a) {} }", "",
     "X\xf0\x90\x90\x80", "X\xf0\x90\x90\x80", "X\xf0\x90\x90\x80", 1},
    {"an ignorable character is dropped from a name",
     "public class Zero\xe2\x80\x8bWidth { public static void main(String[] a) {} }", "",
     "ZeroWidth", "ZeroWidth", "ZeroWidth", 1},
    {"a byte-order mark and CRLF",
     "\xef\xbb\xbfpublic class Win {\r\n  public static void main(String[] a) {}\r\n}\r\n", "",
     "Win", "Win", "Win", 1},
    {"the first public type names the file",
     "public class One {}\npublic class Two { public static void main(String[] a) {} }", "", "One",
     "Two", "One", 2},
    {"an unterminated class still names the file",
     "public class Open { public static void main(String[] a) {", "", "Open", "Open", "Open", 1},
    {"an unterminated string ends at its line",
     "public class U { static String s = \"oops;\n public static void main(String[] a) {} }", "",
     "U", "U", "U", 1},
    {"a module declaration is no type", "module com.example { requires java.base; }", "", "", "",
     "", 0},
    {"stray semicolons and a static import",
     ";\nimport static java.lang.Math.*;;\npublic class Semi { public static void main(String[] a) "
     "{} };",
     "", "Semi", "Semi", "Semi", 1},
    {"a static initializer then an instance main",
     "public class Init { static { } void main(String[] a) {} }", "", "Init", "", "Init", 1},
    {"numbers with dots and exponents",
     "public class N { static double d = 1.5e+3, e = .5f; static long l = 0x1F_FFL; "
     "public static void main(String[] a) {} }",
     "", "N", "N", "N", 1},
    {"dollars and underscores", "public class $Money_1 { public static void main(String[] a) {} }",
     "", "$Money_1", "$Money_1", "$Money_1", 1},
};

static void
test_cases (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      const scan_case_t *c = &cases[i];
      java_unit_t u;
      java_scan (c->src, strlen (c->src), &u);
      if (!ok (strcmp (u.package, c->package) == 0 && strcmp (u.public_type, c->public_type) == 0
                   && strcmp (u.main_type, c->main_type) == 0
                   && strcmp (u.file_type, c->file_type) == 0 && u.n_types == c->n_types
                   && !u.too_long,
               "%s", c->what))
        printf ("#   package \"%s\" public \"%s\" main \"%s\" file \"%s\" types %zu too long %d\n",
                u.package, u.public_type, u.main_type, u.file_type, u.n_types, u.too_long);
    }
}

static void
test_limits (void)
{
  char src[2048];
  java_unit_t u;
  int n;

  /* A name of JAVA_NAME_MAX bytes fits; one more does not. */
  n = snprintf (src, sizeof src, "public class %.*s { public static void main(String[] a) {} }",
                JAVA_NAME_MAX,
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAA");
  java_scan (src, (size_t) n, &u);
  ok (strlen (u.public_type) == JAVA_NAME_MAX && !u.too_long, "a name of %d bytes fits",
      JAVA_NAME_MAX);
  n = snprintf (src, sizeof src, "public class %.*sB { public static void main(String[] a) {} }",
                JAVA_NAME_MAX,
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                "AAAAAAAAAAAAAAAAAA");
  java_scan (src, (size_t) n, &u);
  ok (u.too_long && u.public_type[0] == '\0' && u.main_type[0] == '\0' && u.file_type[0] == '\0'
          && u.n_types == 1,
      "a longer name is left out, and said to be too long");
  java_scan (NULL, 0, &u);
  ok (u.n_types == 0 && u.file_type[0] == '\0', "no source at all");
  /* NUL bytes are characters like others: a name does not stop at one. */
  static const char with_nul[] = "public class A\0B { public static void main(String[] a) {} }";
  java_scan (with_nul, sizeof with_nul - 1, &u);
  is_str (u.main_type, "AB",
          "a NUL inside a name is dropped (identifier-ignorable), as javac does");
}

int
main (void)
{
  test_cases ();
  test_limits ();
  return tap_done ();
}

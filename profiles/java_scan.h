/* profiles/java_scan.h: what a Java compilation unit says about its own
 * file name and its entry point, for /warmbox/init (profiles/init.c
 * --java): javac wants a public top-level type in a file of its name, and
 * `java` wants the class to run by its binary name.  The daemon never
 * parses code; the sandbox does, with this.
 *
 * A lexer (java_scan.c) as javac's scanner reads the text: Unicode escapes
 * first (JLS 3.3), then comments, string and character literals, text
 * blocks; over its tokens, the package declaration and each top-level type
 * declaration (class, interface, enum, record, @interface) with its
 * modifiers, and whether that type's own body declares a static method
 * `void main(...)`.  It checks nothing else: a unit javac would refuse gets
 * an answer all the same, and javac says what is wrong with it.
 *
 * Pure: no allocation, no I/O, no global state; linked static into the
 * init and into the fuzz harness and unit test. */
#ifndef WARMBOX_JAVA_SCAN_H
#define WARMBOX_JAVA_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of UTF-8: NAME.java is a file name (255 bytes at most). */
#define JAVA_NAME_MAX 250
#define JAVA_PACKAGE_MAX 1000

typedef struct java_unit
{
  char package[JAVA_PACKAGE_MAX + 1];  /* "com.example"; "" for the unnamed package */
  char public_type[JAVA_NAME_MAX + 1]; /* the first public top-level type; "" none */
  char main_type[JAVA_NAME_MAX + 1];   /* the top-level type to run: the public one when it
                                          has a main method, else the first that has one; "" none */
  char file_type[JAVA_NAME_MAX + 1];   /* the type the file is named after: the public one,
                                          else main_type, else the first type; "" none */
  size_t n_types;                      /* top-level types declared */
  bool too_long;                       /* a type's or the package's name did not fit: that
                                          name is left out of the fields above */
} java_unit_t;

/* Scan src (len bytes, UTF-8; invalid bytes read as U+FFFD).  Every name
 * out is a Java identifier's UTF-8 (the package: identifiers and dots):
 * never empty unless absent, no '/', no control characters.  Can't fail. */
void java_scan (const char *src, size_t len, java_unit_t *out);

#endif

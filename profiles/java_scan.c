/* profiles/java_scan.c: the file name and entry point of a Java
 * compilation unit (java_scan.h).
 *
 * Three layers, each reading the one below a code point or a token at a
 * time, with nothing buffered but one identifier:
 *
 *   reader  raw UTF-8, with Unicode escapes translated (JLS 3.3): a '\'
 *           preceded by an even number of raw backslashes, then 'u'...,
 *           then four hex digits, is that UTF-16 unit anywhere in the
 *           text, comments and literals included ("// \u000a class X" is
 *           a comment, then a class); a surrogate pair of escapes is one
 *           code point.
 *   lexer   white space and comments skipped; identifiers (as javac's
 *           scanner, the identifier-ignorable characters are dropped from
 *           a name); string and character literals, text blocks and
 *           numbers as one token each; any other character a token of
 *           its own.  An unterminated comment or literal ends at the end
 *           of the text (a string or character literal at its line's end).
 *   scan    over the tokens at brace depth 0: the package declaration,
 *           imports skipped, each type declaration's modifiers and name
 *           ('@interface' and the contextual 'record' included; the
 *           parentheses of annotations and of a record's header
 *           skipped); at depth 1, inside a top-level type, each member's
 *           modifiers up to its ';' or body: a member that is 'static'
 *           and reads "void main (" is a main method.
 *
 * Bounded: one pass, constant memory, O(1) look-ahead (three code
 * points). */
#include "java_scan.h"

#include <stdint.h>
#include <string.h>

#define END (-1)

/* ---- reader: code points, with Unicode escapes translated --------------- */

typedef struct
{
  const unsigned char *s;
  size_t len, pos;
  size_t raw_backslashes; /* contiguous raw '\' just before pos */
} reader_t;

static int
hex_value (unsigned char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* A Unicode escape starting at the '\' at pos: its UTF-16 unit and length
 * in bytes.  False when what follows is not 'u'+ and four hex digits
 * (javac refuses that; here the '\' is a character like any other). */
static bool
escape_at (const reader_t *r, size_t pos, int32_t *unit, size_t *n)
{
  size_t i = pos + 1;
  int32_t v = 0;

  if (i >= r->len || r->s[i] != 'u')
    return false;
  while (i < r->len && r->s[i] == 'u')
    i++;
  if (r->len - i < 4)
    return false;
  for (size_t k = 0; k < 4; k++)
    {
      int h = hex_value (r->s[i + k]);
      if (h < 0)
        return false;
      v = v * 16 + h;
    }
  *unit = v;
  *n = i + 4 - pos;
  return true;
}

/* The code point of the UTF-8 sequence at pos, and its length; U+FFFD for
 * one byte that starts no valid sequence (overlong forms, surrogates and
 * what is past U+10FFFF are not valid). */
static int32_t
utf8_at (const unsigned char *s, size_t len, size_t pos, size_t *n)
{
  unsigned char c = s[pos];
  int32_t cp;
  size_t need;

  *n = 1;
  if (c < 0x80)
    return c;
  if (c >= 0xc2 && c <= 0xdf)
    need = 1, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    need = 2, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    need = 3, cp = c & 0x07;
  else
    return 0xfffd;
  if (len - pos <= need)
    return 0xfffd;
  for (size_t k = 1; k <= need; k++)
    {
      if ((s[pos + k] & 0xc0) != 0x80)
        return 0xfffd;
      cp = (cp << 6) | (s[pos + k] & 0x3f);
    }
  if ((need == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
      || (need == 3 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0xfffd;
  *n = need + 1;
  return cp;
}

static int32_t
rd_next (reader_t *r)
{
  int32_t unit, low;
  size_t n, m;

  if (r->pos >= r->len)
    return END;
  if (r->s[r->pos] == '\\')
    {
      if (r->raw_backslashes % 2 == 0 && escape_at (r, r->pos, &unit, &n))
        {
          r->pos += n;
          r->raw_backslashes = 0;
          /* A high surrogate, then a low one: one code point. */
          if (unit >= 0xd800 && unit <= 0xdbff && r->pos < r->len && r->s[r->pos] == '\\'
              && escape_at (r, r->pos, &low, &m) && low >= 0xdc00 && low <= 0xdfff)
            {
              r->pos += m;
              return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
            }
          return unit;
        }
      r->raw_backslashes++;
      r->pos++;
      return '\\';
    }
  r->raw_backslashes = 0;
  unit = utf8_at (r->s, r->len, r->pos, &n);
  r->pos += n;
  return unit;
}

/* The code point k places ahead (0: the next one), without moving. */
static int32_t
rd_peek (const reader_t *r, int k)
{
  reader_t ahead = *r;
  int32_t cp = END;

  for (int i = 0; i <= k; i++)
    cp = rd_next (&ahead);
  return cp;
}

/* ---- lexer --------------------------------------------------------------- */

typedef enum
{
  T_END,
  T_IDENT,
  T_LITERAL, /* string, character, text block, number */
  T_PUNCT,   /* any other character: tok.punct */
} tok_kind_t;

typedef struct
{
  tok_kind_t kind;
  int32_t punct;
  char text[JAVA_NAME_MAX + 1]; /* an identifier's UTF-8 */
  size_t text_len;
  bool too_long; /* the identifier did not fit in text */
} token_t;

/* Unicode's format characters (category Cf): ignorable in an identifier. */
static bool
is_format (int32_t c)
{
  return c == 0xad || (c >= 0x600 && c <= 0x605) || c == 0x61c || c == 0x6dd || c == 0x70f
         || c == 0x890 || c == 0x891 || c == 0x8e2 || c == 0x180e || (c >= 0x200b && c <= 0x200f)
         || (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x2064)
         || (c >= 0x2066 && c <= 0x206f) || c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb)
         || c == 0x110bd || c == 0x110cd || (c >= 0x13430 && c <= 0x1343f)
         || (c >= 0x1bca0 && c <= 0x1bca3) || (c >= 0x1d173 && c <= 0x1d17a) || c == 0xe0001
         || (c >= 0xe0020 && c <= 0xe007f);
}

/* Dropped from an identifier, as Character.isIdentifierIgnorable. */
static bool
is_ignorable (int32_t c)
{
  return (c >= 0 && c <= 8) || (c >= 0x0e && c <= 0x1b) || (c >= 0x7f && c <= 0x9f)
         || is_format (c);
}

static bool
is_space (int32_t c)
{
  /* javac's white space, the end-of-file SUB, and a byte-order mark. */
  return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r' || c == 0x1a || c == 0xfeff;
}

/* Unicode space separators: not in identifiers (javac refuses them). */
static bool
is_unicode_space (int32_t c)
{
  return c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029
         || c == 0x202f || c == 0x205f || c == 0x3000;
}

static bool
is_ident_start (int32_t c)
{
  if (c < 0x80)
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
  /* Letters of other scripts: javac decides which it takes; none of these
   * is a separator, a control or a surrogate. */
  return c >= 0xa0 && c <= 0x10ffff && !(c >= 0xd800 && c <= 0xdfff) && !is_unicode_space (c)
         && !is_format (c);
}

static bool
is_digit (int32_t c)
{
  return c >= '0' && c <= '9';
}

/* Append c's UTF-8 to the token's text, or mark it too long. */
static void
text_put (token_t *t, int32_t c)
{
  char b[4];
  size_t n;

  if (c < 0x80)
    b[0] = (char) c, n = 1;
  else if (c < 0x800)
    b[0] = (char) (0xc0 | (c >> 6)), b[1] = (char) (0x80 | (c & 0x3f)), n = 2;
  else if (c < 0x10000)
    b[0] = (char) (0xe0 | (c >> 12)), b[1] = (char) (0x80 | ((c >> 6) & 0x3f)),
    b[2] = (char) (0x80 | (c & 0x3f)), n = 3;
  else
    b[0] = (char) (0xf0 | (c >> 18)), b[1] = (char) (0x80 | ((c >> 12) & 0x3f)),
    b[2] = (char) (0x80 | ((c >> 6) & 0x3f)), b[3] = (char) (0x80 | (c & 0x3f)), n = 4;
  if (t->text_len + n > JAVA_NAME_MAX)
    {
      t->too_long = true;
      return;
    }
  memcpy (t->text + t->text_len, b, n);
  t->text_len += n;
  t->text[t->text_len] = '\0';
}

/* The rest of a string or character literal that opened with quote: to
 * the closing quote, or the end of its line. */
static void
skip_quoted (reader_t *r, int32_t quote)
{
  for (;;)
    {
      int32_t c = rd_peek (r, 0);
      if (c == END || c == '\n' || c == '\r')
        return;
      rd_next (r);
      if (c == quote)
        return;
      if (c == '\\')
        {
          c = rd_peek (r, 0);
          if (c != END && c != '\n' && c != '\r')
            rd_next (r);
        }
    }
}

/* A text block's content and closing delimiter (the opening one read). */
static void
skip_text_block (reader_t *r)
{
  for (;;)
    {
      int32_t c = rd_next (r);
      if (c == END)
        return;
      if (c == '\\')
        rd_next (r);
      else if (c == '"' && rd_peek (r, 0) == '"' && rd_peek (r, 1) == '"')
        {
          rd_next (r);
          rd_next (r);
          return;
        }
    }
}

static void
skip_space_and_comments (reader_t *r)
{
  for (;;)
    {
      int32_t c = rd_peek (r, 0);
      if (is_space (c))
        rd_next (r);
      else if (c == '/' && rd_peek (r, 1) == '/')
        {
          while ((c = rd_peek (r, 0)) != END && c != '\n' && c != '\r')
            rd_next (r);
        }
      else if (c == '/' && rd_peek (r, 1) == '*')
        {
          rd_next (r);
          rd_next (r);
          while ((c = rd_next (r)) != END)
            if (c == '*' && rd_peek (r, 0) == '/')
              {
                rd_next (r);
                break;
              }
        }
      else
        return;
    }
}

static void
next_token (reader_t *r, token_t *t)
{
  int32_t c;

  skip_space_and_comments (r);
  t->text_len = 0;
  t->text[0] = '\0';
  t->too_long = false;
  c = rd_next (r);
  if (c == END)
    {
      t->kind = T_END;
      return;
    }
  if (is_ident_start (c))
    {
      t->kind = T_IDENT;
      text_put (t, c);
      for (;;)
        {
          c = rd_peek (r, 0);
          if (is_ignorable (c))
            rd_next (r);
          else if (is_ident_start (c) || is_digit (c))
            text_put (t, rd_next (r));
          else
            return;
        }
    }
  t->kind = T_LITERAL;
  if (is_digit (c) || (c == '.' && is_digit (rd_peek (r, 0))))
    {
      /* 0x1F, 1_000L, 1.5e3, .5f: the signs of exponents come apart,
       * which changes nothing here. */
      while ((c = rd_peek (r, 0)) == '.' || is_digit (c) || is_ident_start (c))
        rd_next (r);
      return;
    }
  if (c == '"' && rd_peek (r, 0) == '"' && rd_peek (r, 1) == '"')
    {
      rd_next (r);
      rd_next (r);
      skip_text_block (r);
      return;
    }
  if (c == '"' || c == '\'')
    {
      skip_quoted (r, c);
      return;
    }
  t->kind = T_PUNCT;
  t->punct = c;
}

/* ---- scan: declarations over the tokens --------------------------------- */

typedef struct
{
  java_unit_t *u;
  size_t depth; /* braces open */
  size_t paren; /* parentheses open at depth 0 */
  enum
  {
    TOP_DECL,    /* modifiers, annotations, a type declaration */
    TOP_PACKAGE, /* after 'package', to its ';' */
    TOP_IMPORT,  /* after 'import', to its ';' */
  } mode;
  bool package_seen, package_too_long;
  /* the declaration being read at depth 0 */
  bool decl_public, expect_name, maybe_record, after_at, named, name_too_long;
  char name[JAVA_NAME_MAX + 1];
  /* the top-level type whose body is open */
  bool in_type, type_public, type_named, type_main;
  char type_name[JAVA_NAME_MAX + 1];
  /* the member being read in that body (depth 1) */
  bool member_static, prev_void, pending_main;
  /* results */
  bool public_main; /* public_type has a main method */
  char first_main[JAVA_NAME_MAX + 1], first_type[JAVA_NAME_MAX + 1];
} scan_t;

static void
decl_reset (scan_t *s)
{
  s->decl_public = s->expect_name = s->maybe_record = s->after_at = s->named = s->name_too_long
      = false;
}

static void
member_reset (scan_t *s)
{
  s->member_static = s->prev_void = s->pending_main = false;
}

static void
copy_name (char *dst, const char *src)
{
  size_t n = strlen (src);

  memcpy (dst, src, n + 1);
}

static void
end_type (scan_t *s)
{
  if (!s->in_type)
    return;
  s->in_type = false;
  s->u->n_types++;
  if (!s->type_named)
    return;
  if (s->first_type[0] == '\0')
    copy_name (s->first_type, s->type_name);
  if (s->type_public && s->u->public_type[0] == '\0')
    {
      copy_name (s->u->public_type, s->type_name);
      s->public_main = s->type_main;
    }
  if (s->type_main && s->first_main[0] == '\0')
    copy_name (s->first_main, s->type_name);
}

static bool
is_word (const token_t *t, const char *word)
{
  return t->kind == T_IDENT && strcmp (t->text, word) == 0;
}

static bool
is_punct (const token_t *t, int32_t c)
{
  return t->kind == T_PUNCT && t->punct == c;
}

static void
package_append (scan_t *s, const token_t *t)
{
  size_t have = strlen (s->u->package), add = t->text_len + (have ? 1 : 0);

  if (s->package_too_long)
    return;
  if (t->too_long || have + add > JAVA_PACKAGE_MAX)
    {
      s->package_too_long = s->u->too_long = true;
      s->u->package[0] = '\0';
      return;
    }
  if (have)
    s->u->package[have++] = '.';
  memcpy (s->u->package + have, t->text, t->text_len + 1);
}

/* A token at depth 0: between the top-level declarations. */
static void
top_token (scan_t *s, const token_t *t)
{
  bool after_at = s->after_at, maybe_record = s->maybe_record;

  if (s->paren > 0)
    {
      if (is_punct (t, '('))
        s->paren++;
      else if (is_punct (t, ')'))
        s->paren--;
      return;
    }
  if (s->mode != TOP_DECL)
    {
      if (is_punct (t, ';'))
        s->mode = TOP_DECL;
      else if (s->mode == TOP_PACKAGE && t->kind == T_IDENT)
        package_append (s, t);
      return;
    }
  s->after_at = s->maybe_record = false;
  if (is_punct (t, '('))
    s->paren++; /* an annotation's arguments, a record's header */
  else if (is_punct (t, ';'))
    decl_reset (s);
  else if (is_punct (t, '{'))
    {
      s->depth = 1;
      if (s->named)
        {
          s->in_type = true;
          s->type_public = s->decl_public;
          s->type_named = !s->name_too_long;
          s->type_main = false;
          copy_name (s->type_name, s->name);
        }
      decl_reset (s);
      member_reset (s);
    }
  else if (is_punct (t, '@'))
    s->after_at = true;
  else if (t->kind != T_IDENT)
    return;
  else if (after_at)
    s->expect_name = is_word (t, "interface") && !s->named; /* else an annotation's name */
  else if (s->expect_name || maybe_record)
    {
      s->expect_name = false;
      s->named = true;
      s->name_too_long = t->too_long;
      if (t->too_long)
        s->u->too_long = true;
      copy_name (s->name, t->text);
    }
  else if (s->named)
    return; /* extends, implements, permits ... */
  else if (is_word (t, "package") && !s->package_seen && !s->decl_public)
    {
      s->package_seen = true;
      s->mode = TOP_PACKAGE;
    }
  else if (is_word (t, "import"))
    s->mode = TOP_IMPORT;
  else if (is_word (t, "public"))
    s->decl_public = true;
  else if (is_word (t, "class") || is_word (t, "interface") || is_word (t, "enum"))
    s->expect_name = true;
  else if (is_word (t, "record"))
    s->maybe_record = true; /* a declaration if a name follows */
}

/* A token inside braces; members of a top-level type at depth 1. */
static void
body_token (scan_t *s, const token_t *t)
{
  bool pending = s->pending_main;

  if (is_punct (t, '{'))
    {
      s->depth++;
      if (s->depth == 2)
        member_reset (s); /* a member's body or initializer */
      return;
    }
  if (is_punct (t, '}'))
    {
      s->depth--;
      if (s->depth == 0)
        {
          end_type (s);
          decl_reset (s);
        }
      else if (s->depth == 1)
        member_reset (s);
      return;
    }
  if (s->depth != 1 || !s->in_type)
    return;
  s->pending_main = false;
  if (pending && is_punct (t, '(') && s->member_static)
    s->type_main = true;
  if (is_punct (t, ';'))
    member_reset (s);
  else if (is_word (t, "static"))
    s->member_static = true;
  else if (is_word (t, "main") && s->prev_void)
    s->pending_main = true;
  s->prev_void = is_word (t, "void");
}

void
java_scan (const char *src, size_t len, java_unit_t *out)
{
  reader_t r = {(const unsigned char *) src, src ? len : 0, 0, 0};
  scan_t s;
  token_t t;

  memset (out, 0, sizeof *out);
  memset (&s, 0, sizeof s);
  s.u = out;
  for (;;)
    {
      next_token (&r, &t);
      if (t.kind == T_END)
        break;
      if (s.depth == 0)
        top_token (&s, &t);
      else
        body_token (&s, &t);
    }
  end_type (&s); /* one left open at the end: javac will say so */
  if (out->public_type[0] && s.public_main)
    copy_name (out->main_type, out->public_type);
  else
    copy_name (out->main_type, s.first_main);
  copy_name (out->file_type, out->public_type[0] ? out->public_type
                             : out->main_type[0] ? out->main_type
                                                 : s.first_type);
}

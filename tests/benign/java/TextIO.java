import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        String input = "3\n10 20 30\nalice 31 1.5\nbob 27 2.25\ncarol 45 -0.75\n";
        Scanner sc = new Scanner(input).useLocale(Locale.ROOT);
        int n = sc.nextInt();
        int s = 0;
        for (int i = 0; i < n; i++) s += sc.nextInt();
        if (s != 60) throw new AssertionError("ints");
        double total = 0;
        List<String> names = new ArrayList<>();
        while (sc.hasNext()) {
            names.add(sc.next());
            int age = sc.nextInt();
            total += sc.nextDouble() + age;
        }
        if (!names.equals(List.of("alice", "bob", "carol")) || total != 106.0) throw new AssertionError(names + " " + total);

        Scanner delim = new Scanner("a;b ; c;;d").useDelimiter("\\s*;\\s*");
        List<String> parts = new ArrayList<>();
        while (delim.hasNext()) parts.add(delim.next());
        if (!parts.equals(List.of("a", "b", "c", "", "d"))) throw new AssertionError(parts.toString());

        BufferedReader br = new BufferedReader(new StringReader("first\nsecond\r\nthird"));
        List<String> lines = new ArrayList<>();
        for (String l; (l = br.readLine()) != null; ) lines.add(l);
        if (!lines.equals(List.of("first", "second", "third"))) throw new AssertionError(lines.toString());
        if (new BufferedReader(new StringReader("x\ny\nz")).lines().count() != 3) throw new AssertionError("lines()");

        StringWriter sw = new StringWriter();
        try (PrintWriter pw = new PrintWriter(sw)) {
            pw.printf(Locale.ROOT, "%-5s|%5d|%.2f%n", "ab", 42, Math.E);
            pw.print(true);
        }
        if (!sw.toString().equals("ab   |   42|2.72" + System.lineSeparator() + "true")) throw new AssertionError(sw.toString());

        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(bos, StandardCharsets.UTF_8)) { w.write("€ and ✓"); }
        byte[] utf8 = bos.toByteArray();
        if (utf8.length != 11) throw new AssertionError("utf8 len " + utf8.length);
        try (Reader r = new InputStreamReader(new ByteArrayInputStream(utf8), StandardCharsets.UTF_8)) {
            char[] cb = new char[32];
            int k = r.read(cb);
            if (!new String(cb, 0, k).equals("€ and ✓")) throw new AssertionError("reader");
        }
        byte[] latin = "café".getBytes(StandardCharsets.ISO_8859_1);
        if (latin.length != 4 || !new String(latin, StandardCharsets.ISO_8859_1).equals("café")) throw new AssertionError("latin1");

        StreamTokenizer st = new StreamTokenizer(new StringReader("x = 3.5 + y"));
        int tokens = 0;
        while (st.nextToken() != StreamTokenizer.TT_EOF) tokens++;
        if (tokens != 5) throw new AssertionError("tokens " + tokens);
        StringTokenizer tok = new StringTokenizer("a b\tc\nd");
        if (tok.countTokens() != 4) throw new AssertionError("StringTokenizer");

        PushbackReader pr = new PushbackReader(new StringReader("ab"));
        int c = pr.read();
        pr.unread(c);
        if (pr.read() != 'a') throw new AssertionError("pushback");

        Properties props = new Properties();
        props.load(new StringReader("# comment\nname=warmbox\nlimit = 10\nmulti=a\\\n  b\n"));
        if (!props.getProperty("name").equals("warmbox") || !props.getProperty("limit").equals("10") || !props.getProperty("multi").equals("ab"))
            throw new AssertionError(props.toString());

        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        out.println("unicode out: € ✓ 😀");
        System.out.println("OK");
    }
}

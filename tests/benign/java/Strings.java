import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.regex.*;
import java.util.stream.Collectors;

public class Main {
    static void eq(Object a, Object b) {
        if (!Objects.equals(a, b)) throw new AssertionError(a + " != " + b);
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10; i++) sb.append(i).append(',');
        sb.setLength(sb.length() - 1);
        eq(sb.toString(), "0,1,2,3,4,5,6,7,8,9");
        eq(sb.reverse().toString(), "9,8,7,6,5,4,3,2,1,0");
        sb.insert(0, "[").append("]").replace(1, 2, "nine");
        eq(sb.toString(), "[nine,8,7,6,5,4,3,2,1,0]");

        String s = "  The quick brown fox jumps over the lazy dog  ";
        eq(s.strip().split("\\s+").length, 9);
        eq(s.trim().toUpperCase(Locale.ROOT).indexOf("FOX"), 16);
        eq(String.join("-", List.of("a", "b", "c")), "a-b-c");
        eq("ab".repeat(3), "ababab");
        eq("  ".isBlank(), true);
        eq("Hello".chars().filter(Character::isLowerCase).count(), 4L);
        eq("a,b,,c,".split(",").length, 4);
        eq("a,b,,c,".split(",", -1).length, 5);
        eq("%s=%d".formatted("x", 5), "x=5");
        eq("line1\nline2\r\nline3".lines().collect(Collectors.toList()), List.of("line1", "line2", "line3"));

        String uni = "héllo wörld ✓ 😀";
        eq(uni.length(), 16);
        eq(uni.codePointCount(0, uni.length()), 15);
        eq(uni.getBytes(StandardCharsets.UTF_8).length, 22);
        eq(new String(uni.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8), uni);
        eq("STRASSE".equalsIgnoreCase("strasse"), true);
        eq("ß".toUpperCase(Locale.ROOT), "SS");

        Pattern date = Pattern.compile("(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})");
        Matcher m = date.matcher("from 2024-01-15 to 2024-03-31.");
        List<String> months = new ArrayList<>();
        while (m.find()) months.add(m.group("m"));
        eq(months, List.of("01", "03"));
        eq(date.matcher("2024-01-15").replaceAll("${d}/${m}/${y}"), "15/01/2024");
        eq(Pattern.matches("[a-z]+@[a-z]+\\.(com|org)", "joe@example.org"), true);
        eq("a1b22c333".replaceAll("\\d+", "#"), "a#b#c#");
        eq(Pattern.compile("\\bcat\\b", Pattern.CASE_INSENSITIVE).matcher("Cat catalog CAT").results().count(), 2L);
        eq(Pattern.compile(",\\s*").splitAsStream("x, y,z").collect(Collectors.toList()), List.of("x", "y", "z"));
        Matcher mr = Pattern.compile("(\\w+)=(\\d+)").matcher("a=1 b=2 c=3");
        eq(mr.replaceAll(r -> r.group(1).toUpperCase() + (Integer.parseInt(r.group(2)) * 10)), "A10 B20 C30");

        char[] cs = "dcba".toCharArray();
        Arrays.sort(cs);
        eq(String.valueOf(cs), "abcd");
        eq(Integer.toHexString(255) + Integer.toBinaryString(5) + Long.toString(35, 36), "ff101z");
        eq(Integer.parseInt("-123") + Double.parseDouble("0.5"), -122.5);
        String interned = new String("abc").intern();
        if (interned != "abc") throw new AssertionError("intern");
        System.out.println(sb);
        System.out.println("OK");
    }
}

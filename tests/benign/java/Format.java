import java.text.*;
import java.util.*;

public class Main {
    static void eq(String a, String b) {
        if (!a.equals(b)) throw new AssertionError("'" + a + "' != '" + b + "'");
    }

    public static void main(String[] args) {
        eq(String.format(Locale.ROOT, "%5.2f|%-6s|%06d|%x|%o|%e", 3.14159, "ab", 42, 255, 8, 12345.678), " 3.14|ab    |000042|ff|10|1.234568e+04");
        eq(String.format(Locale.US, "%,d", 1234567890), "1,234,567,890");
        eq(String.format(Locale.GERMANY, "%,.2f", 1234567.891), "1.234.567,89");
        eq(String.format(Locale.FRANCE, "%,d", 1234567).replace('\u202f', ' ').replace('\u00a0', ' '), "1 234 567");
        eq(String.format("%b %c %%  %n", true, 'x'), "true x %  " + System.lineSeparator());
        eq(String.format("%2$s %1$s", "world", "hello"), "hello world");
        eq(String.format("%08.3f", -3.5), "-003.500");
        eq(String.format("%+d %+d", 5, -5), "+5 -5");
        eq(String.format("%10.4s|", "abcdefgh"), "      abcd|");
        eq(String.format(Locale.ROOT, "%tY-%<tm-%<td", new GregorianCalendar(2024, Calendar.JULY, 4)), "2024-07-04");

        eq(NumberFormat.getCurrencyInstance(Locale.US).format(1234.5), "$1,234.50");
        eq(NumberFormat.getPercentInstance(Locale.US).format(0.256), "26%");
        eq(NumberFormat.getIntegerInstance(Locale.UK).format(9876543), "9,876,543");
        eq(new DecimalFormat("#,##0.00", DecimalFormatSymbols.getInstance(Locale.US)).format(1234.5), "1,234.50");
        eq(new DecimalFormat("0.###E0", DecimalFormatSymbols.getInstance(Locale.US)).format(123456), "1.235E5");
        eq(NumberFormat.getCompactNumberInstance(Locale.US, NumberFormat.Style.SHORT).format(1_200_000), "1M");
        try {
            Number parsed = NumberFormat.getInstance(Locale.GERMANY).parse("1.234,5");
            if (parsed.doubleValue() != 1234.5) throw new AssertionError("parse");
        } catch (ParseException e) {
            throw new AssertionError(e);
        }

        eq(MessageFormat.format("{0} has {1,number,integer} items", "cart", 3), "cart has 3 items");
        eq(new ChoiceFormat("0#none|1#one|1<many").format(5), "many");
        SimpleDateFormat sdf = new SimpleDateFormat("yyyy-MM-dd HH:mm zzz", Locale.US);
        sdf.setTimeZone(TimeZone.getTimeZone("UTC"));
        eq(sdf.format(new Date(0)), "1970-01-01 00:00 UTC");

        eq("TITLE".toLowerCase(new Locale("tr")), "tıtle");
        eq("title".toUpperCase(Locale.ROOT), "TITLE");
        Collator col = Collator.getInstance(Locale.FRENCH);
        List<String> words = new ArrayList<>(List.of("côte", "cote", "coté", "côté"));
        words.sort(col);
        if (words.size() != 4 || !words.get(0).equals("cote")) throw new AssertionError(words.toString());
        eq(Locale.GERMANY.getDisplayCountry(Locale.ENGLISH), "Germany");
        eq(Currency.getInstance(Locale.JAPAN).getCurrencyCode(), "JPY");
        eq(Normalizer.normalize("e\u0301", Normalizer.Form.NFC), "é");
        BreakIterator bi = BreakIterator.getWordInstance(Locale.US);
        bi.setText("Hello, big world!");
        int words2 = 0;
        for (int start = bi.first(), end = bi.next(); end != BreakIterator.DONE; start = end, end = bi.next())
            if (Character.isLetter("Hello, big world!".charAt(start))) words2++;
        if (words2 != 3) throw new AssertionError("words " + words2);
        System.out.println(String.format("%-10s|%8.3f|", "default", Math.PI));
        System.out.println("OK");
    }
}

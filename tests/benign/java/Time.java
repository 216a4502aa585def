import java.time.*;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;

public class Main {
    static void eq(Object a, Object b) {
        if (!a.equals(b)) throw new AssertionError(a + " != " + b);
    }

    public static void main(String[] args) throws Exception {
        LocalDate d = LocalDate.of(2024, 2, 28);
        eq(d.plusDays(1), LocalDate.of(2024, 2, 29));
        eq(d.plusDays(2).getMonth(), Month.MARCH);
        eq(d.isLeapYear(), true);
        eq(d.getDayOfWeek(), DayOfWeek.WEDNESDAY);
        eq(d.with(TemporalAdjusters.lastDayOfMonth()).getDayOfMonth(), 29);
        eq(ChronoUnit.DAYS.between(LocalDate.of(2000, 1, 1), d), 8824L);
        eq(Period.between(LocalDate.of(1990, 5, 17), d).getYears(), 33);

        LocalDateTime ldt = LocalDateTime.parse("2024-03-10T01:30:00");
        ZonedDateTime ny = ldt.atZone(ZoneId.of("America/New_York"));
        ZonedDateTime later = ny.plusHours(1);
        eq(later.getHour(), 3); // DST gap
        eq(ny.withZoneSameInstant(ZoneId.of("Europe/Paris")).getHour(), 7);
        eq(ZonedDateTime.of(ldt, ZoneOffset.UTC).toInstant().getEpochSecond(), 1710034200L);

        DateTimeFormatter f = DateTimeFormatter.ofPattern("EEEE, d MMMM uuuu HH:mm", Locale.ENGLISH);
        eq(ldt.format(f), "Sunday, 10 March 2024 01:30");
        eq(LocalDate.parse("15/08/2023", DateTimeFormatter.ofPattern("dd/MM/yyyy")), LocalDate.of(2023, 8, 15));
        eq(DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(0)), "1970-01-01T00:00:00Z");
        eq(OffsetDateTime.parse("2024-01-01T12:00:00+02:00").toInstant(), Instant.parse("2024-01-01T10:00:00Z"));

        Duration dur = Duration.ofMinutes(135).plusSeconds(30);
        eq(dur.toString(), "PT2H15M30S");
        eq(dur.toHoursPart(), 2);

        Instant t0 = Instant.now();
        long n0 = System.nanoTime();
        Thread.sleep(20);
        long elapsedMs = (System.nanoTime() - n0) / 1_000_000;
        if (elapsedMs < 15 || Instant.now().isBefore(t0)) throw new AssertionError("clock " + elapsedMs);
        if (Year.now().getValue() < 2020) throw new AssertionError("year");
        ZoneId sys = ZoneId.systemDefault();
        if (sys == null) throw new AssertionError("zone");
        eq(YearMonth.of(2023, 2).lengthOfMonth(), 28);
        System.out.println("default zone " + sys + ", slept " + (elapsedMs >= 15));
        System.out.println("OK");
    }
}

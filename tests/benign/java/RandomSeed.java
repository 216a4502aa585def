import java.util.*;
import java.util.random.RandomGenerator;
import java.util.stream.*;

public class Main {
    public static void main(String[] args) {
        Random r1 = new Random(42), r2 = new Random(42);
        for (int i = 0; i < 1000; i++) if (r1.nextInt() != r2.nextInt()) throw new AssertionError("same seed");
        Random r = new Random(12345);
        int first = r.nextInt(100);
        if (first != 51) throw new AssertionError("first " + first);
        long nextLong = new Random(0).nextLong();
        if (nextLong != -4962768465676381896L) throw new AssertionError("nextLong " + nextLong);

        int[] buckets = new int[10];
        Random g = new Random(7);
        for (int i = 0; i < 100_000; i++) buckets[g.nextInt(10)]++;
        for (int b : buckets) if (Math.abs(b - 10_000) > 500) throw new AssertionError("uniform " + Arrays.toString(buckets));
        double mean = new Random(3).doubles(100_000).average().orElse(0);
        if (Math.abs(mean - 0.5) > 0.01) throw new AssertionError("mean " + mean);
        double gaussSq = 0;
        Random gr = new Random(11);
        for (int i = 0; i < 100_000; i++) { double x = gr.nextGaussian(); gaussSq += x * x; }
        if (Math.abs(gaussSq / 100_000 - 1) > 0.03) throw new AssertionError("gaussian var");

        List<Integer> deck = IntStream.range(0, 52).boxed().collect(Collectors.toList());
        List<Integer> deck2 = new ArrayList<>(deck);
        Collections.shuffle(deck, new Random(99));
        Collections.shuffle(deck2, new Random(99));
        if (!deck.equals(deck2) || deck.equals(IntStream.range(0, 52).boxed().collect(Collectors.toList()))) throw new AssertionError("shuffle");

        SplittableRandom sr = new SplittableRandom(5);
        SplittableRandom sr2 = new SplittableRandom(5);
        if (sr.nextLong() != sr2.nextLong()) throw new AssertionError("splittable");
        RandomGenerator xo = RandomGenerator.of("Xoshiro256PlusPlus");
        xo.nextInt();
        int tl = java.util.concurrent.ThreadLocalRandom.current().nextInt(5, 10);
        if (tl < 5 || tl >= 10) throw new AssertionError("tlr");
        double m = Math.random();
        if (m < 0 || m >= 1) throw new AssertionError("Math.random");

        // Monte Carlo pi with a fixed seed
        Random pr = new Random(2024);
        int inside = 0, N = 200_000;
        for (int i = 0; i < N; i++) { double x = pr.nextDouble(), y = pr.nextDouble(); if (x * x + y * y <= 1) inside++; }
        double pi = 4.0 * inside / N;
        if (Math.abs(pi - Math.PI) > 0.02) throw new AssertionError("pi " + pi);
        if (Math.abs(Math.sin(Math.PI / 6) - 0.5) > 1e-12 || Math.hypot(3, 4) != 5 || Math.floorMod(-7, 3) != 2 || StrictMath.cbrt(27) != 3)
            throw new AssertionError("math");
        System.out.printf(Locale.ROOT, "pi ~ %.2f, first %d%n", pi, first);
        System.out.println("OK");
    }
}

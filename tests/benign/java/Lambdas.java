import java.util.*;
import java.util.function.*;
import java.util.stream.*;

public class Main {
    @FunctionalInterface
    interface TriFunction<A, B, C, R> { R apply(A a, B b, C c); }

    static int twice(int x) { return 2 * x; }

    static Supplier<Integer> counter() {
        int[] n = {0};
        return () -> ++n[0];
    }

    public static void main(String[] args) {
        var list = new ArrayList<String>();
        list.add("kiwi"); list.add("Apple"); list.add("banana");
        var sorted = new ArrayList<>(list);
        sorted.sort(String::compareToIgnoreCase);
        if (!sorted.equals(List.of("Apple", "banana", "kiwi"))) throw new AssertionError(sorted.toString());

        Function<Integer, Integer> inc = x -> x + 1;
        Function<Integer, Integer> dbl = Main::twice;
        if (inc.andThen(dbl).apply(3) != 8 || inc.compose(dbl).apply(3) != 7) throw new AssertionError("compose");
        BiFunction<String, Integer, String> rep = String::repeat;
        if (!rep.apply("ab", 2).equals("abab")) throw new AssertionError("bifunction");
        TriFunction<Integer, Integer, Integer, Integer> sum3 = (a, b, c) -> a + b + c;
        if (sum3.apply(1, 2, 3) != 6) throw new AssertionError("tri");
        Supplier<List<String>> mk = ArrayList::new;
        if (!mk.get().isEmpty()) throw new AssertionError("ctor ref");
        Function<String, Integer> len = String::length;
        UnaryOperator<String> up = String::toUpperCase;
        BinaryOperator<Integer> max = BinaryOperator.maxBy(Comparator.naturalOrder());
        if (len.apply("four") != 4 || !up.apply("x").equals("X") || max.apply(3, 9) != 9) throw new AssertionError("refs");

        Predicate<String> empty = String::isEmpty;
        Predicate<String> longish = s -> s.length() > 4;
        if (list.stream().filter(empty.negate().and(longish.negate())).count() != 1) throw new AssertionError("predicates");
        IntBinaryOperator gcd = new IntBinaryOperator() {
            public int applyAsInt(int a, int b) { return b == 0 ? a : applyAsInt(b, a % b); }
        };
        if (gcd.applyAsInt(84, 36) != 12) throw new AssertionError("gcd");

        var c = counter();
        c.get(); c.get();
        if (c.get() != 3) throw new AssertionError("closure");

        StringBuilder seen = new StringBuilder();
        Consumer<String> a1 = seen::append;
        a1.andThen(s -> seen.append('|')).accept("x");
        list.forEach(s -> seen.append(s.charAt(0)));
        if (!seen.toString().equals("x|kAb")) throw new AssertionError(seen.toString());

        Map<String, Integer> m = new HashMap<>();
        list.forEach(s -> m.merge(s.toLowerCase().substring(0, 1), 1, Integer::sum));
        m.replaceAll((k, v) -> v * 10);
        m.computeIfPresent("k", (k, v) -> v + 1);
        if (m.get("k") != 11) throw new AssertionError("map lambdas");

        Runnable r = () -> seen.setLength(0);
        r.run();
        Comparator<int[]> byLen = Comparator.comparingInt(arr -> arr.length);
        var arrays = new ArrayList<>(List.of(new int[3], new int[1], new int[2]));
        arrays.sort(byLen.reversed());
        if (arrays.get(0).length != 3) throw new AssertionError("comparator");

        for (var e : Map.of("one", 1).entrySet()) if (!e.getKey().equals("one")) throw new AssertionError("var in for");
        String fizz = IntStream.rangeClosed(1, 15)
                .mapToObj(i -> i % 15 == 0 ? "FizzBuzz" : i % 3 == 0 ? "Fizz" : i % 5 == 0 ? "Buzz" : String.valueOf(i))
                .collect(Collectors.joining(" "));
        if (!fizz.equals("1 2 Fizz 4 Buzz Fizz 7 8 Fizz Buzz 11 Fizz 13 14 FizzBuzz")) throw new AssertionError(fizz);
        System.out.println(fizz);
        System.out.println("OK");
    }
}

import java.util.*;
import java.util.function.*;

public class Main {
    static final class Pair<A, B> {
        final A first; final B second;
        Pair(A first, B second) { this.first = first; this.second = second; }
        <C> Pair<A, C> withSecond(C c) { return new Pair<>(first, c); }
    }

    interface Stack<T> extends Iterable<T> {
        void push(T t);
        T pop();
        boolean isEmpty();
    }

    static class ArrayStack<T> implements Stack<T> {
        private Object[] items = new Object[2];
        private int n;
        public void push(T t) {
            if (n == items.length) items = Arrays.copyOf(items, n * 2);
            items[n++] = t;
        }
        @SuppressWarnings("unchecked")
        public T pop() {
            if (n == 0) throw new NoSuchElementException();
            T t = (T) items[--n];
            items[n] = null;
            return t;
        }
        public boolean isEmpty() { return n == 0; }
        public Iterator<T> iterator() {
            return new Iterator<T>() {
                int i = n;
                public boolean hasNext() { return i > 0; }
                @SuppressWarnings("unchecked") public T next() { return (T) items[--i]; }
            };
        }
    }

    static <T extends Comparable<? super T>> T max(Collection<? extends T> xs) {
        Iterator<? extends T> it = xs.iterator();
        T best = it.next();
        while (it.hasNext()) { T x = it.next(); if (x.compareTo(best) > 0) best = x; }
        return best;
    }

    static double sum(List<? extends Number> xs) {
        double s = 0;
        for (Number x : xs) s += x.doubleValue();
        return s;
    }

    static void fill(List<? super Integer> xs, int n) { for (int i = 0; i < n; i++) xs.add(i); }

    static <T, R> List<R> map(List<T> xs, Function<? super T, ? extends R> f) {
        List<R> out = new ArrayList<>();
        for (T x : xs) out.add(f.apply(x));
        return out;
    }

    static Optional<Integer> parse(String s) {
        try { return Optional.of(Integer.parseInt(s)); } catch (NumberFormatException e) { return Optional.empty(); }
    }

    public static void main(String[] args) {
        Pair<String, Integer> p = new Pair<>("a", 1);
        Pair<String, List<String>> q = p.withSecond(List.of("x"));
        if (!q.first.equals("a") || q.second.size() != 1) throw new AssertionError("pair");

        Stack<String> st = new ArrayStack<>();
        for (String s : "a b c d e".split(" ")) st.push(s);
        StringBuilder sb = new StringBuilder();
        for (String s : st) sb.append(s);
        if (!sb.toString().equals("edcba") || !st.pop().equals("e")) throw new AssertionError("stack " + sb);

        if (max(List.of(3, 9, 2)) != 9 || !max(Set.of("pear", "apple", "zoo")).equals("zoo")) throw new AssertionError("max");
        if (sum(List.of(1, 2.5, 3L)) != 6.5) throw new AssertionError("sum");
        List<Number> nums = new ArrayList<>();
        fill(nums, 4);
        if (nums.size() != 4) throw new AssertionError("fill");
        if (!map(List.of("a", "bb", "ccc"), String::length).equals(List.of(1, 2, 3))) throw new AssertionError("map");

        if (parse("42").map(x -> x * 2).orElse(0) != 84) throw new AssertionError("optional map");
        if (parse("nope").isPresent() || parse("nope").orElseGet(() -> -1) != -1) throw new AssertionError("optional empty");
        if (!parse("7").filter(x -> x > 5).flatMap(x -> Optional.of("big")).orElse("small").equals("big"))
            throw new AssertionError("optional flatMap");
        try {
            parse("x").orElseThrow(() -> new IllegalArgumentException("bad"));
            throw new AssertionError("orElseThrow");
        } catch (IllegalArgumentException expected) { }
        OptionalInt oi = java.util.stream.IntStream.of().max();
        if (oi.isPresent()) throw new AssertionError("OptionalInt");
        Optional.ofNullable(System.getProperty("no.such.property")).ifPresentOrElse(
            v -> { throw new AssertionError("present"); }, () -> System.out.println("absent as expected"));

        Map<String, List<Integer>> multi = new TreeMap<>();
        multi.computeIfAbsent("x", k -> new ArrayList<>()).add(1);
        multi.computeIfAbsent("x", k -> new ArrayList<>()).add(2);
        multi.merge("y", new ArrayList<>(List.of(3)), (o, n) -> { o.addAll(n); return o; });
        if (!multi.toString().equals("{x=[1, 2], y=[3]}")) throw new AssertionError(multi.toString());
        System.out.println("OK");
    }
}

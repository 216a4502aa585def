import java.util.*;
import java.util.concurrent.*;
import java.util.stream.*;

public class Main {
    static class Fib extends RecursiveTask<Long> {
        final int n;
        Fib(int n) { this.n = n; }
        protected Long compute() {
            if (n < 15) return slow(n);
            Fib f1 = new Fib(n - 1);
            f1.fork();
            return new Fib(n - 2).compute() + f1.join();
        }
        static long slow(int n) { return n < 2 ? n : slow(n - 1) + slow(n - 2); }
    }

    public static void main(String[] args) {
        long primes = IntStream.rangeClosed(2, 20_000).parallel()
                .filter(n -> IntStream.rangeClosed(2, (int) Math.sqrt(n)).noneMatch(d -> n % d == 0)).count();
        if (primes != 2262) throw new AssertionError("primes " + primes);

        List<Integer> data = new Random(1).ints(100_000, 0, 1000).boxed().collect(Collectors.toList());
        long seqSum = data.stream().mapToLong(Integer::longValue).sum();
        long parSum = data.parallelStream().mapToLong(Integer::longValue).sum();
        if (seqSum != parSum) throw new AssertionError("sum");
        Map<Integer, Long> hist = data.parallelStream().collect(Collectors.groupingByConcurrent(x -> x / 100, Collectors.counting()));
        if (hist.size() != 10 || hist.values().stream().mapToLong(Long::longValue).sum() != 100_000) throw new AssertionError("hist");
        List<Integer> sortedPar = data.parallelStream().sorted().limit(5).collect(Collectors.toList());
        if (sortedPar.get(0) != 0) throw new AssertionError("sorted");

        int[] arr = new Random(2).ints(200_000).toArray();
        int[] copy = arr.clone();
        Arrays.parallelSort(arr);
        Arrays.sort(copy);
        if (!Arrays.equals(arr, copy)) throw new AssertionError("parallelSort");
        long[] prefix = new long[1000];
        Arrays.parallelSetAll(prefix, i -> i);
        Arrays.parallelPrefix(prefix, Long::sum);
        if (prefix[999] != 499500) throw new AssertionError("prefix");

        long fib = ForkJoinPool.commonPool().invoke(new Fib(25));
        if (fib != 75025) throw new AssertionError("fib " + fib);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 1000).parallel().forEach(i -> threads.add(Thread.currentThread().getName()));
        System.out.println("primes " + primes + " parallelism " + ForkJoinPool.getCommonPoolParallelism()
                + " threads>0 " + !threads.isEmpty());
        System.out.println("OK");
    }
}

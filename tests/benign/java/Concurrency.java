import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.*;

public class Main {
    public static void main(String[] args) throws Exception {
        AtomicLong counter = new AtomicLong();
        LongAdder adder = new LongAdder();
        Thread[] ts = new Thread[8];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> {
                for (int j = 0; j < 10_000; j++) { counter.incrementAndGet(); adder.increment(); }
            }, "worker-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        if (counter.get() != 80_000 || adder.sum() != 80_000) throw new AssertionError("atomic " + counter.get());

        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            final int n = i;
            futures.add(pool.submit(() -> n * n));
        }
        int total = 0;
        for (Future<Integer> f : futures) total += f.get(5, TimeUnit.SECONDS);
        if (total != 2870) throw new AssertionError("futures " + total);
        List<Callable<String>> calls = List.of(() -> "a", () -> "b", () -> "c");
        StringBuilder sb = new StringBuilder();
        for (Future<String> f : pool.invokeAll(calls)) sb.append(f.get());
        if (!sb.toString().equals("abc")) throw new AssertionError("invokeAll");

        ConcurrentHashMap<String, Integer> words = new ConcurrentHashMap<>();
        CountDownLatch latch = new CountDownLatch(4);
        for (int w = 0; w < 4; w++) {
            pool.execute(() -> {
                for (int j = 0; j < 1000; j++) words.merge("k" + (j % 10), 1, Integer::sum);
                latch.countDown();
            });
        }
        if (!latch.await(5, TimeUnit.SECONDS)) throw new AssertionError("latch");
        if (words.size() != 10 || words.values().stream().mapToInt(Integer::intValue).sum() != 4000)
            throw new AssertionError("chm " + words);

        CompletableFuture<Integer> cf = CompletableFuture.supplyAsync(() -> 20, pool)
                .thenApplyAsync(x -> x + 1, pool)
                .thenCombine(CompletableFuture.supplyAsync(() -> 2), (a, b) -> a * b);
        if (cf.get(5, TimeUnit.SECONDS) != 42) throw new AssertionError("cf");
        CompletableFuture<String> failing = CompletableFuture.<String>supplyAsync(() -> { throw new IllegalStateException("x"); })
                .exceptionally(e -> "recovered " + e.getCause().getClass().getSimpleName());
        if (!failing.join().equals("recovered IllegalStateException")) throw new AssertionError(failing.join());
        CompletableFuture<Void> all = CompletableFuture.allOf(
                CompletableFuture.runAsync(() -> {}, pool), CompletableFuture.runAsync(() -> {}));
        all.get(5, TimeUnit.SECONDS);

        BlockingQueue<Integer> q = new ArrayBlockingQueue<>(4);
        Thread producer = new Thread(() -> {
            try { for (int i = 0; i < 100; i++) q.put(i); q.put(-1); } catch (InterruptedException e) { }
        });
        producer.start();
        long got = 0;
        for (int v; (v = q.take()) != -1; ) got += v;
        producer.join();
        if (got != 4950) throw new AssertionError("queue");

        ReentrantLock lock = new ReentrantLock();
        Condition ready = lock.newCondition();
        boolean[] flag = {false};
        pool.execute(() -> { lock.lock(); try { flag[0] = true; ready.signalAll(); } finally { lock.unlock(); } });
        lock.lock();
        try { while (!flag[0]) ready.await(5, TimeUnit.SECONDS); } finally { lock.unlock(); }

        Object mon = new Object();
        int[] shared = {0};
        Thread waiter = new Thread(() -> { synchronized (mon) { while (shared[0] == 0) { try { mon.wait(); } catch (InterruptedException e) { return; } } } });
        waiter.start();
        synchronized (mon) { shared[0] = 1; mon.notifyAll(); }
        waiter.join(5000);
        if (waiter.isAlive()) throw new AssertionError("wait/notify");

        Thread sleeper = new Thread(() -> { try { Thread.sleep(60_000); } catch (InterruptedException e) { } });
        sleeper.setDaemon(true);
        sleeper.start();
        sleeper.interrupt();
        sleeper.join(5000);

        ForkJoinPool fj = new ForkJoinPool(3);
        long s = fj.submit(() -> java.util.stream.LongStream.rangeClosed(1, 1_000_000).parallel().sum()).get();
        fj.shutdown();
        if (s != 500000500000L) throw new AssertionError("fj");

        ThreadLocal<Integer> tl = ThreadLocal.withInitial(() -> 7);
        if (pool.submit(tl::get).get() != 7) throw new AssertionError("threadlocal");
        pool.shutdown();
        if (!pool.awaitTermination(5, TimeUnit.SECONDS)) throw new AssertionError("shutdown");
        System.out.println("processors " + (Runtime.getRuntime().availableProcessors() > 0));
        System.out.println("OK");
    }
}

import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
    public static void main(String[] args) throws Exception {
        ScheduledExecutorService ses = Executors.newScheduledThreadPool(2);
        AtomicInteger ticks = new AtomicInteger();
        CountDownLatch five = new CountDownLatch(5);
        ScheduledFuture<?> rep = ses.scheduleAtFixedRate(() -> { ticks.incrementAndGet(); five.countDown(); }, 0, 10, TimeUnit.MILLISECONDS);
        if (!five.await(3, TimeUnit.SECONDS)) throw new AssertionError("ticks " + ticks.get());
        rep.cancel(false);
        long t0 = System.nanoTime();
        ScheduledFuture<String> once = ses.schedule(() -> "done", 50, TimeUnit.MILLISECONDS);
        if (!once.get(3, TimeUnit.SECONDS).equals("done")) throw new AssertionError("schedule");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (ms < 40) throw new AssertionError("too early " + ms);

        Timer timer = new Timer("timer", true);
        CompletableFuture<Long> fired = new CompletableFuture<>();
        long start = System.currentTimeMillis();
        timer.schedule(new TimerTask() { public void run() { fired.complete(System.currentTimeMillis() - start); } }, 30);
        if (fired.get(3, TimeUnit.SECONDS) < 20) throw new AssertionError("timer");
        timer.cancel();

        CompletableFuture<String> delayed = CompletableFuture.supplyAsync(() -> "late",
                CompletableFuture.delayedExecutor(40, TimeUnit.MILLISECONDS));
        CompletableFuture<String> timeout = new CompletableFuture<String>().completeOnTimeout("fallback", 20, TimeUnit.MILLISECONDS);
        if (!delayed.get(3, TimeUnit.SECONDS).equals("late") || !timeout.get(3, TimeUnit.SECONDS).equals("fallback")) throw new AssertionError("delayed");
        try {
            new CompletableFuture<String>().orTimeout(20, TimeUnit.MILLISECONDS).join();
            throw new AssertionError("orTimeout");
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof TimeoutException)) throw new AssertionError(e);
        }

        long s0 = System.nanoTime();
        Thread.sleep(25);
        TimeUnit.MILLISECONDS.sleep(5);
        if ((System.nanoTime() - s0) / 1_000_000 < 28) throw new AssertionError("sleep");
        Thread.onSpinWait();
        Thread.yield();

        ses.shutdown();
        if (!ses.awaitTermination(3, TimeUnit.SECONDS)) throw new AssertionError("shutdown");
        Thread hook = new Thread(() -> System.out.println("OK"));
        Runtime.getRuntime().addShutdownHook(hook);
        System.out.println("ticks >= 5: " + (ticks.get() >= 5));
        // OK is printed by the shutdown hook as the JVM exits
    }
}

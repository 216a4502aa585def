import java.lang.management.*;
import java.lang.ref.*;
import java.util.*;

public class Main {
    public static void main(String[] args) {
        // A program that allocates a good deal and keeps some of it, so the GC works.
        Map<Integer, String> big = new HashMap<>();
        for (int i = 0; i < 300_000; i++) big.put(i, "value-" + i);
        if (big.size() != 300_000 || !big.get(123_456).equals("value-123456")) throw new AssertionError("map");
        long garbage = 0;
        for (int round = 0; round < 40; round++) {
            byte[][] chunks = new byte[64][];
            for (int i = 0; i < chunks.length; i++) { chunks[i] = new byte[64 * 1024]; chunks[i][i] = (byte) i; }
            garbage += chunks.length * 64L * 1024;
        }
        List<int[]> kept = new ArrayList<>();
        for (int i = 0; i < 10; i++) kept.add(new int[1 << 20]); // 40 MB kept
        kept.get(9)[1000] = 5;
        if (kept.get(9)[1000] != 5) throw new AssertionError("kept");

        WeakReference<Object> weak = new WeakReference<>(new byte[1 << 20]);
        SoftReference<Object> soft = new SoftReference<>(new byte[1 << 10]);
        ReferenceQueue<Object> rq = new ReferenceQueue<>();
        PhantomReference<Object> ph = new PhantomReference<>(new Object(), rq);
        System.gc();
        if (ph.refersTo(null) == false && weak.get() != null) System.out.println("gc kept the weak reference");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 200_000; i++) sb.append((char) ('a' + i % 26));
        String s = sb.toString();
        if (s.length() != 200_000 || s.charAt(27) != 'b') throw new AssertionError("sb");

        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long used = mem.getHeapMemoryUsage().getUsed();
        long gcs = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) gcs += Math.max(0, gc.getCollectionCount());
        ThreadMXBean th = ManagementFactory.getThreadMXBean();
        RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
        if (used <= 0 || gcs <= 0 || th.getThreadCount() < 1 || rt.getUptime() < 0) throw new AssertionError("mxbeans " + used + " " + gcs);
        System.out.println("allocated " + (garbage >> 20) + " MiB of garbage, " + gcs + " collections, max heap "
                + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
        System.out.println("OK");
    }
}

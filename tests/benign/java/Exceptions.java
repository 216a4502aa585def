import java.io.*;
import java.util.*;

public class Main {
    static class InsufficientFunds extends Exception {
        final int missing;
        InsufficientFunds(int missing) {
            super("missing " + missing);
            this.missing = missing;
        }
    }

    static final List<String> log = new ArrayList<>();

    static class Resource implements AutoCloseable {
        final String name;
        Resource(String name) { this.name = name; log.add("open " + name); }
        @Override public void close() { log.add("close " + name); }
    }

    static void withdraw(int balance, int amount) throws InsufficientFunds {
        if (amount > balance) throw new InsufficientFunds(amount - balance);
    }

    static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

    static int recurseForever(int n) { return recurseForever(n + 1) + 1; }

    public static void main(String[] args) {
        try {
            withdraw(10, 25);
            throw new AssertionError("no throw");
        } catch (InsufficientFunds e) {
            if (e.missing != 15 || !e.getMessage().equals("missing 15")) throw new AssertionError(e.getMessage());
        }

        try (Resource a = new Resource("a"); Resource b = new Resource("b")) {
            log.add("body");
            throw new IllegalStateException("boom");
        } catch (IllegalStateException e) {
            log.add("caught " + e.getMessage());
        } finally {
            log.add("finally");
        }
        if (!log.equals(List.of("open a", "open b", "body", "close b", "close a", "caught boom", "finally")))
            throw new AssertionError(log.toString());

        Exception wrapped = new RuntimeException("outer", new IOException("inner"));
        if (!(wrapped.getCause() instanceof IOException)) throw new AssertionError("cause");
        StringWriter sw = new StringWriter();
        wrapped.printStackTrace(new PrintWriter(sw));
        String trace = sw.toString();
        if (!trace.contains("Caused by: java.io.IOException: inner") || !trace.contains("at Main.main"))
            throw new AssertionError(trace);
        StackTraceElement top = new Throwable().getStackTrace()[0];
        if (!top.getMethodName().equals("main") || !top.getClassName().equals("Main")) throw new AssertionError("frame");

        Throwable t = new Exception("primary");
        t.addSuppressed(new Exception("secondary"));
        if (t.getSuppressed().length != 1) throw new AssertionError("suppressed");

        int caught = 0;
        Object[] bad = {null, "x", new int[0]};
        for (Object o : bad) {
            try {
                if (o == null) o.hashCode();
                else if (o instanceof String) Integer.parseInt((String) o);
                else { int[] arr = (int[]) o; int z = arr[3]; }
            } catch (NullPointerException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
                caught++;
            }
        }
        if (caught != 3) throw new AssertionError("multi-catch " + caught);

        try {
            Object s = "str";
            Integer i = (Integer) s;
            throw new AssertionError("cast");
        } catch (ClassCastException expected) { }
        try {
            int zero = args.length;
            int r = 1 / zero;
            throw new AssertionError("div");
        } catch (ArithmeticException expected) { }

        if (depth(2000) != 2000) throw new AssertionError("depth");
        try {
            recurseForever(0);
            throw new AssertionError("no overflow");
        } catch (StackOverflowError expected) {
            System.out.println("stack overflow caught");
        }
        System.err.println("a line on stderr");
        System.out.println("OK");
    }
}

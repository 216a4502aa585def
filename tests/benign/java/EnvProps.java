import java.io.File;
import java.nio.charset.Charset;
import java.util.*;

public class Main {
    public static void main(String[] args) {
        Map<String, String> env = System.getenv();
        String home = System.getenv("HOME");
        if (home == null || home.isEmpty()) throw new AssertionError("HOME");
        if (System.getenv("PATH") == null) throw new AssertionError("PATH");
        if (System.getenv("WARMBOX_SURELY_UNSET") != null) throw new AssertionError("unset var");
        if (env.containsKey("WARMBOX_SURELY_UNSET")) throw new AssertionError("map");
        try {
            env.put("X", "Y");
            throw new AssertionError("env is mutable");
        } catch (UnsupportedOperationException expected) { }

        String[] keys = {"java.version", "java.vendor", "os.name", "os.arch", "user.dir", "user.home", "user.name",
                "java.io.tmpdir", "file.separator", "line.separator", "path.separator", "java.class.path", "java.home"};
        for (String k : keys) if (System.getProperty(k) == null) throw new AssertionError(k);
        if (!System.getProperty("java.version").startsWith("17")) throw new AssertionError("version " + System.getProperty("java.version"));
        if (Runtime.version().feature() != 17) throw new AssertionError("feature");
        if (!File.separator.equals("/") || !System.lineSeparator().equals("\n")) throw new AssertionError("separators");
        if (!new File(System.getProperty("user.dir")).isDirectory()) throw new AssertionError("user.dir");
        System.setProperty("my.prop", "v");
        if (!System.getProperty("my.prop").equals("v") || !System.getProperty("no.prop", "def").equals("def")) throw new AssertionError("setProperty");
        if (Integer.getInteger("no.int", 5) != 5 || Boolean.getBoolean("no.bool")) throw new AssertionError("typed props");
        System.out.println("encoding " + Charset.defaultCharset() + " file.encoding " + System.getProperty("file.encoding"));
        if (!Charset.defaultCharset().name().equals("UTF-8")) throw new AssertionError("charset");

        Runtime rt = Runtime.getRuntime();
        if (rt.availableProcessors() < 1 || rt.maxMemory() <= 0 || rt.totalMemory() < rt.freeMemory()) throw new AssertionError("runtime");
        long t = System.currentTimeMillis();
        if (t < 1_600_000_000_000L) throw new AssertionError("time");
        System.gc();
        System.out.println("user " + System.getProperty("user.name") + " tz " + TimeZone.getDefault().getID()
                + " locale " + Locale.getDefault() + " args " + args.length);
        System.out.println("OK");
    }
}

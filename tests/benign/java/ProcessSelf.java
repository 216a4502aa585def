import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.TimeUnit;

public class Main {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child")) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line = in.readLine();
            System.out.println("child got " + args[1] + " and " + line);
            System.err.println("child stderr");
            System.exit(7);
        }
        String java = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + "/bin/java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "Main", "child", "arg1");
        pb.environment().put("CHILD_VAR", "1");
        Process p = pb.start();
        try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) { w.write("stdin line\n"); }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(8, TimeUnit.SECONDS)) throw new AssertionError("child timeout");
        if (p.exitValue() != 7) throw new AssertionError("exit " + p.exitValue() + " " + err);
        if (!out.equals("child got arg1 and stdin line\n")) throw new AssertionError("stdout " + out);
        if (!err.equals("child stderr\n")) throw new AssertionError("stderr " + err);

        Process v = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
        String version = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (v.waitFor() != 0 || !version.contains("version")) throw new AssertionError(version);

        ProcessHandle self = ProcessHandle.current();
        if (self.pid() <= 0 || !self.isAlive()) throw new AssertionError("self");
        if (self.children().count() != 0) throw new AssertionError("children left");
        System.out.println("child pid was " + (p.pid() > 0 ? "positive" : "bad"));
        System.out.println("OK");
    }
}

import java.util.ArrayList;
import java.util.List;

public class Main {
    public static void main(String[] args) {
        String java = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + "/bin/java");
        String cp = System.getProperty("java.class.path", "/build");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", cp, "Main", "child")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        List<Process> children = new ArrayList<>();
        boolean said = false;
        while (true) {
            try {
                children.add(pb.start());
            } catch (Throwable e) {
                // IOException "error=11, Resource temporarily unavailable" from posix_spawn/fork,
                // or OutOfMemoryError "unable to create native thread" (pthread_create: EAGAIN)
                if (!said) {
                    said = true;
                    String m = String.valueOf(e.getMessage());
                    boolean eagain = m.contains("error=11") || m.contains("Resource temporarily unavailable")
                            || m.contains("unable to create native thread");
                    System.out.println(eagain ? "fork EAGAIN" : "fork other " + e);
                    System.out.flush();
                }
            }
        }
    }
}

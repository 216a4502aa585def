import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

public class Main {
    public static void main(String[] args) {
        for (String p : new String[]{"/etc/warmbox_pwned", "/usr/bin/warmbox_pwned", "/warmbox_pwned"}) {
            try {
                Files.write(Paths.get(p), "pwned\n".getBytes(StandardCharsets.UTF_8));
                System.out.println(p + " WRITTEN");
            } catch (Exception e) {
                System.out.println(p + " refused");
            }
        }
        System.out.println("done");
    }
}

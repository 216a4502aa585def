import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Main {
    public static void main(String[] args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 2000);
            System.out.println("CONNECTED");
        } catch (Exception e) {
            System.out.println("connect refused");
        }
        List<String> names = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(Paths.get("/proc/net/dev"));
            for (String line : lines.subList(2, lines.size())) {
                int colon = line.indexOf(':');
                if (colon > 0) names.add(line.substring(0, colon).trim());
            }
        } catch (Exception e) {
            names.add("unreadable");
        }
        Collections.sort(names);
        System.out.println("interfaces " + String.join(",", names));
    }
}

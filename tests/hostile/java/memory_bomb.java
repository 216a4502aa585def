import java.util.ArrayList;
import java.util.List;

public class Main {
    public static void main(String[] args) {
        List<byte[]> kept = new ArrayList<>();
        try {
            while (true) {
                byte[] chunk = new byte[10 * 1024 * 1024];
                for (int i = 0; i < chunk.length; i += 4096) chunk[i] = 1; // touch every page
                kept.add(chunk);
            }
        } catch (OutOfMemoryError e) {
            int n = kept.size();
            kept = null;
            System.out.println("OutOfMemoryError after " + n + " chunks of 10 MB");
            System.out.flush();
            System.exit(1);
        }
    }
}

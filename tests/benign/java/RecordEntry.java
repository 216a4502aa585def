// The entry point is a public record with a static main, behind comments
// and text blocks that mention other classes.
import java.util.*;

/* public class NotThis { public static void main(String[] a) {} } */
public record RecordEntry(String name, int score) implements Comparable<RecordEntry> {
    static final String DOC = """
        public class AlsoNotThis {
            public static void main(String[] a) { }
        }
        """;

    public int compareTo(RecordEntry o) { return Integer.compare(o.score, score); }

    public static void main(String[] args) {
        List<RecordEntry> board = new ArrayList<>(List.of(new RecordEntry("ada", 3), new RecordEntry("bob", 9),
                new RecordEntry("cy", 5)));
        Collections.sort(board);
        if (!board.get(0).name().equals("bob")) throw new AssertionError(board);
        if (!DOC.contains("AlsoNotThis")) throw new AssertionError("text block");
        char brace = '}';
        System.out.println(board + " " + brace);
        System.out.println("OK");
    }
}

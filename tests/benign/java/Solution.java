// An agent's usual shape: `public class Solution` (not Main), a helper
// class beside it, a nested one, and a main that reads its own class name.
import java.util.*;

class Interval {
    final int lo, hi;
    Interval(int lo, int hi) { this.lo = lo; this.hi = hi; }
    public String toString() { return "[" + lo + "," + hi + "]"; }
}

public class Solution {
    static class Merger {
        List<Interval> merge(List<Interval> in) {
            List<Interval> sorted = new ArrayList<>(in);
            sorted.sort(Comparator.comparingInt(i -> i.lo));
            Deque<Interval> out = new ArrayDeque<>();
            for (Interval i : sorted) {
                if (!out.isEmpty() && out.peekLast().hi >= i.lo) {
                    Interval last = out.pollLast();
                    out.addLast(new Interval(last.lo, Math.max(last.hi, i.hi)));
                } else {
                    out.addLast(i);
                }
            }
            return new ArrayList<>(out);
        }
    }

    public static void main(String[] args) {
        List<Interval> merged = new Merger().merge(List.of(new Interval(8, 10), new Interval(1, 3),
                new Interval(2, 6), new Interval(15, 18)));
        if (!merged.toString().equals("[[1,6], [8,10], [15,18]]")) throw new AssertionError(merged);
        if (!Solution.class.getName().equals("Solution")) throw new AssertionError(Solution.class.getName());
        String main = "public static void main(String[] a) {}"; // a string is no declaration
        System.out.println(merged + " " + main.length());
        System.out.println("OK");
    }
}

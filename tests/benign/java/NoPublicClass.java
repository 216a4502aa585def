// No public class: the file is named after the class with main (Program),
// which comes after a record and an interface.
import java.util.*;

record Edge(String from, String to) {}

interface Graph {
    List<String> order();
}

class Program {
    public static void main(String[] args) {
        Map<String, List<String>> adj = new TreeMap<>();
        for (Edge e : List.of(new Edge("shirt", "tie"), new Edge("tie", "jacket"), new Edge("pants", "shoes"),
                new Edge("pants", "jacket"), new Edge("shirt", "belt"), new Edge("belt", "jacket"))) {
            adj.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to());
            adj.computeIfAbsent(e.to(), k -> new ArrayList<>());
        }
        Graph g = () -> {
            Map<String, Integer> in = new TreeMap<>();
            adj.keySet().forEach(k -> in.put(k, 0));
            adj.values().forEach(vs -> vs.forEach(v -> in.merge(v, 1, Integer::sum)));
            Deque<String> ready = new ArrayDeque<>();
            in.forEach((k, n) -> { if (n == 0) ready.add(k); });
            List<String> out = new ArrayList<>();
            while (!ready.isEmpty()) {
                String k = ready.poll();
                out.add(k);
                for (String v : adj.get(k)) if (in.merge(v, -1, Integer::sum) == 0) ready.add(v);
            }
            return out;
        };
        List<String> order = g.order();
        if (order.size() != 6 || order.indexOf("jacket") != 5) throw new AssertionError(order);
        if (!Program.class.getName().equals("Program")) throw new AssertionError("class");
        System.out.println(order);
        System.out.println("OK");
    }
}

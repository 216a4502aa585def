import java.util.*;
import java.util.function.Function;
import java.util.stream.*;

public class Main {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    public static void main(String[] args) {
        List<Integer> nums = IntStream.rangeClosed(1, 100).boxed().collect(Collectors.toList());
        check(nums.stream().mapToInt(Integer::intValue).sum() == 5050, "sum");
        check(nums.stream().filter(n -> n % 2 == 0).count() == 50, "even count");

        Map<Boolean, List<Integer>> parts = nums.stream().collect(Collectors.partitioningBy(n -> n > 90));
        check(parts.get(true).size() == 10, "partition");

        List<String> words = List.of("banana", "apple", "cherry", "date", "fig", "grape", "avocado");
        Map<Character, List<String>> byFirst = words.stream()
                .collect(Collectors.groupingBy(w -> w.charAt(0), TreeMap::new, Collectors.toList()));
        check(byFirst.get('a').equals(List.of("apple", "avocado")), "groupingBy " + byFirst);
        check(new ArrayList<>(byFirst.keySet()).equals(List.of('a', 'b', 'c', 'd', 'f', 'g')), "keys");

        String joined = words.stream().sorted(Comparator.comparing(String::length).thenComparing(Function.identity()))
                .collect(Collectors.joining(",", "[", "]"));
        check(joined.equals("[fig,date,apple,grape,banana,cherry,avocado]"), joined);

        Map<String, Integer> lengths = words.stream().collect(Collectors.toMap(w -> w, String::length));
        check(lengths.get("avocado") == 7, "toMap");

        Deque<Integer> dq = new ArrayDeque<>();
        for (int i = 0; i < 5; i++) { dq.addFirst(i); dq.addLast(i * 10); }
        check(dq.peekFirst() == 4 && dq.peekLast() == 40 && dq.size() == 10, "deque");

        PriorityQueue<int[]> pq = new PriorityQueue<>(Comparator.comparingInt(a -> a[1]));
        pq.add(new int[]{1, 50}); pq.add(new int[]{2, 10}); pq.add(new int[]{3, 30});
        check(pq.poll()[0] == 2 && pq.poll()[0] == 3 && pq.poll()[0] == 1, "priority queue");

        LinkedHashMap<String, Integer> lru = new LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<String, Integer> e) { return size() > 3; }
        };
        lru.put("a", 1); lru.put("b", 2); lru.put("c", 3); lru.get("a"); lru.put("d", 4);
        check(lru.keySet().equals(new LinkedHashSet<>(List.of("c", "a", "d"))), "lru " + lru.keySet());

        TreeSet<Integer> ts = new TreeSet<>(List.of(5, 1, 9, 3, 7));
        check(ts.ceiling(4) == 5 && ts.floor(4) == 3 && ts.headSet(5).size() == 2, "treeset");

        EnumMap<Thread.State, Integer> em = new EnumMap<>(Thread.State.class);
        em.put(Thread.State.RUNNABLE, 1);
        check(em.containsKey(Thread.State.RUNNABLE), "enummap");

        int[] arr = {9, 3, 7, 1, 5};
        Arrays.sort(arr);
        check(Arrays.toString(arr).equals("[1, 3, 5, 7, 9]") && Arrays.binarySearch(arr, 7) == 3, "arrays");

        List<List<Integer>> nested = List.of(List.of(1, 2), List.of(3), List.of(), List.of(4, 5, 6));
        check(nested.stream().flatMap(List::stream).reduce(0, Integer::sum) == 21, "flatMap");

        IntSummaryStatistics st = words.stream().mapToInt(String::length).summaryStatistics();
        check(st.getMax() == 7 && st.getMin() == 3, "stats");

        List<Integer> iterated = Stream.iterate(1, x -> x < 1000, x -> x * 3).toList();
        check(iterated.equals(List.of(1, 3, 9, 27, 81, 243, 729)), "iterate");

        try {
            List.of(1).add(2);
            check(false, "immutable");
        } catch (UnsupportedOperationException expected) { }

        List<String> shuffled = new ArrayList<>(words);
        Collections.shuffle(shuffled, new Random(42));
        Collections.sort(shuffled);
        check(shuffled.get(0).equals("apple"), "shuffle+sort");
        System.out.println("sum=5050 groups=" + byFirst.size());
        System.out.println("OK");
    }
}

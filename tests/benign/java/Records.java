import java.util.*;

public class Main {
    sealed interface Shape permits Circle, Rect, Square {}
    record Circle(double r) implements Shape {}
    record Rect(double w, double h) implements Shape {}
    record Square(double side) implements Shape {
        Square {
            if (side < 0) throw new IllegalArgumentException("negative side");
        }
    }

    record Point(int x, int y) implements Comparable<Point> {
        static final Point ORIGIN = new Point(0, 0);
        int manhattan() { return Math.abs(x) + Math.abs(y); }
        public int compareTo(Point o) { return Integer.compare(manhattan(), o.manhattan()); }
    }

    enum Day { MON, TUE, WED, THU, FRI, SAT, SUN }

    static double area(Shape s) {
        // pattern matching in switch is a preview feature in Java 17: use instanceof patterns
        if (s instanceof Circle c) return Math.PI * c.r() * c.r();
        if (s instanceof Rect r) return r.w() * r.h();
        if (s instanceof Square q) return q.side() * q.side();
        throw new IllegalStateException("unknown shape");
    }

    static String kind(Shape s) {
        return switch (s.getClass().getSimpleName()) {
            case "Circle" -> "round";
            case "Rect", "Square" -> "angular";
            default -> throw new IllegalStateException();
        };
    }

    static String describe(Object o) {
        if (o instanceof String s && !s.isEmpty()) return "string of " + s.length();
        if (o instanceof Integer i) return "int " + (i + 1);
        return "other";
    }

    public static void main(String[] args) {
        List<Shape> shapes = List.of(new Circle(1), new Rect(2, 3), new Square(4));
        double total = shapes.stream().mapToDouble(Main::area).sum();
        if (Math.abs(total - (Math.PI + 6 + 16)) > 1e-9) throw new AssertionError("area " + total);

        if (!kind(shapes.get(0)).equals("round") || !kind(shapes.get(2)).equals("angular")) throw new AssertionError("kind");
        if (!Shape.class.isSealed() || Shape.class.getPermittedSubclasses().length != 3) throw new AssertionError("sealed");

        Point p = new Point(3, -4);
        if (!p.equals(new Point(3, -4)) || p.hashCode() != new Point(3, -4).hashCode()) throw new AssertionError("record eq");
        if (!p.toString().equals("Point[x=3, y=-4]")) throw new AssertionError(p.toString());
        if (p.manhattan() != 7 || Point.ORIGIN.compareTo(p) >= 0) throw new AssertionError("manhattan");

        try {
            new Square(-1);
            throw new AssertionError("compact constructor");
        } catch (IllegalArgumentException expected) { }

        int weekend = 0;
        for (Day d : Day.values()) {
            weekend += switch (d) {
                case SAT, SUN -> 1;
                default -> {
                    int z = 0;
                    yield z;
                }
            };
        }
        if (weekend != 2) throw new AssertionError("weekend");

        String json = """
            {
              "name": "warmbox",
              "langs": ["java", "typescript"]
            }
            """;
        if (!json.startsWith("{\n  \"name\"") || json.lines().count() != 4) throw new AssertionError("text block");
        String oneLine = """
            a \
            b\tc""";
        if (!oneLine.equals("a b\tc")) throw new AssertionError("text block escapes: " + oneLine);

        if (!describe("hey").equals("string of 3") || !describe(41).equals("int 42") || !describe(1.0).equals("other"))
            throw new AssertionError("instanceof patterns");

        System.out.printf("total area %.4f%n", total);
        System.out.println("OK");
    }
}

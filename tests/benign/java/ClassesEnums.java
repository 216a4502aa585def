import java.util.*;

public class Main {
    interface Animal {
        String name();
        default String greet() { return "I am " + name() + " and I say " + sound(); }
        String sound();
        static Animal of(String kind) { return kind.equals("dog") ? new Dog("rex") : new Cat("tom"); }
    }

    static abstract class Base implements Animal {
        private final String name;
        protected int legs = 4;
        private static int count;
        Base(String name) { this.name = name; count++; }
        public String name() { return name; }
        static int count() { return count; }
        @Override public String toString() { return getClass().getSimpleName() + "(" + name + ")"; }
    }

    static final class Dog extends Base {
        Dog(String n) { super(n); }
        public String sound() { return "woof"; }
    }

    static class Cat extends Base {
        Cat(String n) { super(n); }
        public String sound() { return "meow"; }
        @Override public String greet() { return super.greet().toUpperCase(); }
    }

    enum Planet {
        MERCURY(3.303e+23, 2.4397e6), EARTH(5.976e+24, 6.37814e6);
        private final double mass, radius;
        Planet(double mass, double radius) { this.mass = mass; this.radius = radius; }
        double surfaceGravity() { return 6.67300E-11 * mass / (radius * radius); }
    }

    enum Op {
        ADD("+") { int apply(int a, int b) { return a + b; } },
        MUL("*") { int apply(int a, int b) { return a * b; } };
        final String sym;
        Op(String sym) { this.sym = sym; }
        abstract int apply(int a, int b);
    }

    class Inner { int outerHash() { return Main.this.hashCode(); } }

    static int evaluate(String expr) {
        Deque<Integer> st = new ArrayDeque<>();
        for (String tok : expr.split(" ")) {
            Optional<Op> op = Arrays.stream(Op.values()).filter(o -> o.sym.equals(tok)).findFirst();
            if (op.isPresent()) { int b = st.pop(), a = st.pop(); st.push(op.get().apply(a, b)); }
            else st.push(Integer.parseInt(tok));
        }
        return st.pop();
    }

    public static void main(String[] args) {
        List<Animal> zoo = List.of(Animal.of("dog"), Animal.of("cat"));
        if (!zoo.get(0).greet().equals("I am rex and I say woof")) throw new AssertionError(zoo.get(0).greet());
        if (!zoo.get(1).greet().equals("I AM TOM AND I SAY MEOW")) throw new AssertionError("override");
        if (Base.count() != 2 || !zoo.toString().equals("[Dog(rex), Cat(tom)]")) throw new AssertionError(zoo.toString());
        if (!(zoo.get(0) instanceof Base base) || base.legs != 4) throw new AssertionError("instanceof");

        if (Math.abs(Planet.EARTH.surfaceGravity() - 9.80) > 0.01) throw new AssertionError("gravity");
        if (Planet.valueOf("MERCURY").ordinal() != 0 || Planet.values().length != 2) throw new AssertionError("enum");
        if (evaluate("3 4 + 5 *") != 35) throw new AssertionError("rpn");
        EnumSet<Op> ops = EnumSet.allOf(Op.class);
        if (!ops.contains(Op.MUL) || Op.ADD.getDeclaringClass() != Op.class) throw new AssertionError("enumset");
        Main m = new Main();
        if (m.new Inner().outerHash() != m.hashCode()) throw new AssertionError("inner");
        Object anon = new Object() { @Override public String toString() { return "anon"; } };
        if (!anon.toString().equals("anon")) throw new AssertionError("anonymous");
        int hash = Objects.hash(1, "a", null);
        if (hash != Arrays.hashCode(new Object[]{1, "a", null})) throw new AssertionError("hash");
        System.out.println(zoo);
        System.out.println("OK");
    }
}

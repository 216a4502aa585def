import java.lang.annotation.*;
import java.lang.reflect.*;
import java.util.*;

public class Main {
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.FIELD, ElementType.TYPE})
    @interface Info {
        String value();
        int priority() default 1;
    }

    @Info("the widget")
    public static class Widget implements Comparable<Widget> {
        @Info(value = "id", priority = 5) private final int id;
        public String label = "none";
        private static int created;

        public Widget(int id) { this.id = id; created++; }
        @Info("getter") public int getId() { return id; }
        private String secret(String prefix) { return prefix + id; }
        @Deprecated public void old() { }
        public int compareTo(Widget o) { return Integer.compare(id, o.id); }
    }

    interface Greeter { String greet(String name); }

    public static void main(String[] args) throws Throwable {
        Class<?> c = Class.forName("Main$Widget");
        if (c != Widget.class || !c.getSimpleName().equals("Widget")) throw new AssertionError("forName");
        if (!c.getAnnotation(Info.class).value().equals("the widget")) throw new AssertionError("class annotation");

        Object w = c.getConstructor(int.class).newInstance(17);
        Method getter = c.getMethod("getId");
        if ((int) getter.invoke(w) != 17 || !getter.getAnnotation(Info.class).value().equals("getter")) throw new AssertionError("getter");
        Method secret = c.getDeclaredMethod("secret", String.class);
        secret.setAccessible(true);
        if (!secret.invoke(w, "#").equals("#17")) throw new AssertionError("private method");

        Field id = c.getDeclaredField("id");
        if (id.getAnnotation(Info.class).priority() != 5 || !Modifier.isFinal(id.getModifiers())) throw new AssertionError("field");
        id.setAccessible(true);
        if (id.getInt(w) != 17) throw new AssertionError("field value");
        Field label = c.getField("label");
        label.set(w, "set by reflection");
        if (!((Widget) w).label.equals("set by reflection")) throw new AssertionError("set");
        Field created = c.getDeclaredField("created");
        created.setAccessible(true);
        if (created.getInt(null) != 1) throw new AssertionError("static");
        if (c.getMethod("old").getAnnotation(Deprecated.class) == null) throw new AssertionError("deprecated");

        List<String> methods = new ArrayList<>();
        for (Method m : c.getDeclaredMethods()) if (!m.isSynthetic()) methods.add(m.getName());
        Collections.sort(methods);
        if (!methods.equals(List.of("compareTo", "getId", "old", "secret"))) throw new AssertionError(methods.toString());
        if (!Arrays.asList(c.getInterfaces()).contains(Comparable.class)) throw new AssertionError("interfaces");
        Type generic = c.getGenericInterfaces()[0];
        if (!generic.getTypeName().equals("java.lang.Comparable<Main$Widget>")) throw new AssertionError(generic.getTypeName());

        Greeter g = (Greeter) Proxy.newProxyInstance(Main.class.getClassLoader(), new Class<?>[]{Greeter.class},
                (proxy, method, a) -> method.getName().equals("greet") ? "hi " + a[0] : null);
        if (!g.greet("bob").equals("hi bob")) throw new AssertionError("proxy");

        Object arr = Array.newInstance(int.class, 3);
        Array.setInt(arr, 1, 9);
        if (((int[]) arr)[1] != 9 || !arr.getClass().getComponentType().equals(int.class)) throw new AssertionError("array");

        record R(String name, int n) {}
        RecordComponent[] rc = R.class.getRecordComponents();
        if (rc.length != 2 || !rc[1].getName().equals("n")) throw new AssertionError("record components");
        if (!Main.class.getDeclaredMethod("main", String[].class).toString().equals("public static void Main.main(java.lang.String[]) throws java.lang.Throwable"))
            throw new AssertionError("toString");
        java.lang.invoke.MethodHandle mh = java.lang.invoke.MethodHandles.lookup()
                .findVirtual(String.class, "concat", java.lang.invoke.MethodType.methodType(String.class, String.class));
        if (!((String) mh.invoke("a", "b")).equals("ab")) throw new AssertionError("method handle");
        if (String.class.getModule().getName() == null || !String.class.getModule().getName().equals("java.base")) throw new AssertionError("module");
        System.out.println("methods " + methods);
        System.out.println("OK");
    }
}

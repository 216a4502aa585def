import java.io.*;
import java.nio.file.*;
import java.util.*;

public class Main {
    static class Account implements Serializable {
        private static final long serialVersionUID = 1L;
        final String owner;
        final List<Integer> history = new ArrayList<>();
        transient String cache = "cached";
        Account(String owner) { this.owner = owner; }
    }

    record Pt(int x, int y) implements Serializable {}

    enum Color { RED, GREEN }

    public static void main(String[] args) throws Exception {
        Account a = new Account("ann");
        a.history.addAll(List.of(5, -3, 10));
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("account", a);
        root.put("point", new Pt(1, 2));
        root.put("color", Color.GREEN);
        root.put("same", a);
        root.put("array", new long[]{1L << 40, -1});

        Path file = Paths.get("state.ser");
        try (ObjectOutputStream oos = new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            oos.writeObject(root);
            oos.writeInt(99);
        }
        Map<?, ?> back;
        int trailer;
        try (ObjectInputStream ois = new ObjectInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            back = (Map<?, ?>) ois.readObject();
            trailer = ois.readInt();
        }
        Account b = (Account) back.get("account");
        if (!b.owner.equals("ann") || !b.history.equals(List.of(5, -3, 10)) || b.cache != null) throw new AssertionError("account");
        if (back.get("same") != b) throw new AssertionError("identity kept");
        if (!back.get("point").equals(new Pt(1, 2)) || back.get("color") != Color.GREEN) throw new AssertionError("record/enum");
        if (((long[]) back.get("array"))[0] != 1L << 40 || trailer != 99) throw new AssertionError("array");
        if (!new ArrayList<>(back.keySet()).equals(List.of("account", "point", "color", "same", "array"))) throw new AssertionError("order");

        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bos)) { oos.writeObject(new Object[]{"s", 1, 2.0}); }
        try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
            Object[] arr = (Object[]) ois.readObject();
            if (arr.length != 3 || !arr[0].equals("s")) throw new AssertionError("array");
        }
        try {
            new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(new Object());
            throw new AssertionError("not serializable");
        } catch (NotSerializableException expected) { }
        System.out.println("serialized " + Files.size(file) + " bytes");
        Files.delete(file);
        System.out.println("OK");
    }
}

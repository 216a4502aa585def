import java.io.*;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.*;
import java.util.stream.*;

public class Main {
    public static void main(String[] args) throws IOException {
        Path base = Paths.get("data_dir");
        Files.createDirectories(base.resolve("sub/deeper"));
        Path a = base.resolve("a.txt");
        Files.write(a, List.of("alpha", "beta", "gamma"), StandardCharsets.UTF_8);
        Files.writeString(base.resolve("sub/b.txt"), "héllo\n");
        Files.write(base.resolve("sub/deeper/c.bin"), new byte[]{1, 2, 3, 4});
        Files.writeString(a, "delta\n", StandardOpenOption.APPEND);

        List<String> lines = Files.readAllLines(a);
        if (!lines.equals(List.of("alpha", "beta", "gamma", "delta"))) throw new AssertionError(lines.toString());
        if (!Files.readString(base.resolve("sub/b.txt")).equals("héllo\n")) throw new AssertionError("readString");
        try (Stream<String> s = Files.lines(a)) {
            if (s.filter(l -> l.contains("a")).count() != 4) throw new AssertionError("lines");
        }

        List<String> found;
        try (Stream<Path> w = Files.walk(base)) {
            found = w.filter(Files::isRegularFile).map(p -> base.relativize(p).toString()).sorted().collect(Collectors.toList());
        }
        if (!found.equals(List.of("a.txt", "sub/b.txt", "sub/deeper/c.bin"))) throw new AssertionError(found.toString());
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, "*.txt")) {
            int n = 0;
            for (Path p : ds) n++;
            if (n != 1) throw new AssertionError("glob");
        }
        BasicFileAttributes attrs = Files.readAttributes(a, BasicFileAttributes.class);
        if (attrs.size() != 23 || !attrs.isRegularFile()) throw new AssertionError("size " + attrs.size());
        if (Files.size(base.resolve("sub/deeper/c.bin")) != 4) throw new AssertionError("size");

        Path moved = base.resolve("moved.txt");
        Files.copy(a, base.resolve("copy.txt"));
        Files.move(base.resolve("copy.txt"), moved, StandardCopyOption.REPLACE_EXISTING);
        if (!Files.exists(moved) || Files.exists(base.resolve("copy.txt"))) throw new AssertionError("move");

        try (BufferedWriter bw = Files.newBufferedWriter(base.resolve("big.csv"))) {
            for (int i = 0; i < 10_000; i++) bw.write(i + "," + (i * i) + "\n");
        }
        long sum = 0;
        try (BufferedReader br = Files.newBufferedReader(base.resolve("big.csv"))) {
            String l;
            while ((l = br.readLine()) != null) sum += Long.parseLong(l.split(",")[1]);
        }
        if (sum != 333283335000L) throw new AssertionError("csv " + sum);

        try (RandomAccessFile raf = new RandomAccessFile("raf.dat", "rw"); FileChannel ch = raf.getChannel()) {
            ByteBuffer bb = ByteBuffer.allocate(16);
            bb.putLong(0x0102030405060708L).putDouble(2.5).flip();
            ch.write(bb);
            raf.seek(8);
            if (raf.readDouble() != 2.5) throw new AssertionError("raf");
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream("data.bin")))) {
            out.writeInt(42); out.writeUTF("ünïcode"); out.writeLong(-1);
        }
        try (DataInputStream in = new DataInputStream(new FileInputStream("data.bin"))) {
            if (in.readInt() != 42 || !in.readUTF().equals("ünïcode") || in.readLong() != -1) throw new AssertionError("data");
        }
        File legacy = new File("legacy.txt");
        try (PrintWriter pw = new PrintWriter(new FileWriter(legacy))) { pw.println("x"); }
        if (!legacy.exists() || legacy.length() != 2 || !legacy.delete()) throw new AssertionError("java.io.File");

        Path tmp = Files.createTempFile(Paths.get("."), "pre", ".tmp");
        Files.delete(tmp);
        Path tmpDir = Files.createTempDirectory("wbtest");
        Files.writeString(tmpDir.resolve("t"), "t");
        Files.delete(tmpDir.resolve("t"));
        Files.delete(tmpDir);

        try {
            Files.readString(Paths.get("does/not/exist"));
            throw new AssertionError("missing file");
        } catch (NoSuchFileException expected) { }

        try (Stream<Path> w = Files.walk(base)) {
            for (Path p : w.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) Files.delete(p);
        }
        if (Files.exists(base)) throw new AssertionError("cleanup");
        System.out.println("cwd " + Paths.get("").toAbsolutePath().isAbsolute());
        System.out.println("OK");
    }
}

/*
 * A class in a package: it runs as com.example.app.PackagedApp, and its
 * classes land under /build/com/example/app.
 */
package com.example.app;

import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

public final class PackagedApp {
    private PackagedApp() {}

    public static void main(final String... args) throws Exception {
        String name = PackagedApp.class.getName();
        if (!name.equals("com.example.app.PackagedApp")) throw new AssertionError(name);
        if (!PackagedApp.class.getPackageName().equals("com.example.app")) throw new AssertionError("package");
        Function<Integer, String> fizz = i -> i % 15 == 0 ? "FizzBuzz" : i % 3 == 0 ? "Fizz" : i % 5 == 0 ? "Buzz" : "" + i;
        String line = IntStream.rangeClosed(1, 15).boxed().map(fizz).collect(Collectors.joining(" "));
        if (!line.endsWith("14 FizzBuzz")) throw new AssertionError(line);
        System.out.println(line);
        System.out.println("OK");
    }
}

// A class whose name is not ASCII: its file (Grüße.java) and the class to
// run travel as UTF-8 (the sandbox's LANG is C.UTF-8).
public class Grüße {
    public static void main(String[] args) {
        String name = Grüße.class.getSimpleName();
        if (!name.equals("Gr\u00fc\u00dfe")) throw new AssertionError(name);
        System.out.println("Hallo aus " + name);
        System.out.println("OK");
    }
}

public class Main {
    public static void main(String[] args) {
        int x = undeclared_thing + 1;
        System.out.println(x);
    }
}

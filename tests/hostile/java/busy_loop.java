public class Main {
    static volatile long sink;

    public static void main(String[] args) {
        long i = 0;
        while (true) {
            i++;
            sink = i;
        }
    }
}

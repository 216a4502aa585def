// Hostile: spins on the CPU forever.
fn main() {
    let mut n: u64 = 0;
    loop {
        n = n.wrapping_add(1);
        unsafe { std::ptr::write_volatile(&mut n, n) };
    }
}

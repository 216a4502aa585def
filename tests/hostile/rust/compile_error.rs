// Does not compile: uses an undeclared identifier, so rustc fails naming it.
fn main() {
    println!("{}", undeclared_thing);
}

// A syntax error: transpileModule reports it as a diagnostic (TS1109: Expression expected).
const greeting: string = "hello";
let x = ;
console.log(greeting, x);

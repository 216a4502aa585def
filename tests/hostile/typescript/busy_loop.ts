let i: number = 0;
for (;;) {
  i = (i + 1) | 0;
}

/* math.h and fenv.h: elementary functions, rounding, classification, numeric integration. */
#include <complex.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int fails;
#define FAILIF(c) do { if (c) { fprintf(stderr, "failed: %s (line %d)\n", #c, __LINE__); fails++; } } while (0)
static void near(double got, double want, double tol, const char *what) {
    if (!(fabs(got - want) <= tol)) { fprintf(stderr, "%s: got %.17g want %.17g\n", what, got, want); fails++; }
}

int main(void) {
    near(sqrt(2.0), 1.4142135623730951, 1e-15, "sqrt");
    near(sin(M_PI / 6), 0.5, 1e-15, "sin");
    near(cos(M_PI), -1.0, 1e-15, "cos");
    near(tan(M_PI / 4), 1.0, 1e-15, "tan");
    near(atan2(1.0, 1.0), M_PI / 4, 1e-15, "atan2");
    near(exp(1.0), M_E, 1e-15, "exp");
    near(log(M_E), 1.0, 1e-15, "log");
    near(log10(1000.0), 3.0, 1e-15, "log10");
    near(log2(1024.0), 10.0, 0, "log2");
    near(pow(2.0, 0.5), sqrt(2.0), 1e-15, "pow");
    near(cbrt(27.0), 3.0, 1e-15, "cbrt");
    near(hypot(3.0, 4.0), 5.0, 0, "hypot");
    near(fma(2.0, 3.0, 1.0), 7.0, 0, "fma");
    near(fmod(10.5, 3.0), 1.5, 0, "fmod");
    near(erf(0.5), 0.5204998778130465, 1e-15, "erf");
    near(tgamma(5.0), 24.0, 1e-12, "tgamma");
    near(lgamma(10.0), log(362880.0), 1e-12, "lgamma");
    near(sinh(1.0), (M_E - 1 / M_E) / 2, 1e-15, "sinh");
    near(expm1(1e-10), 1e-10 + 5e-21, 1e-25, "expm1");
    near(log1p(1e-10), 1e-10 - 5e-21, 1e-25, "log1p");
    near(sinf(1.0f), 0.84147098f, 1e-7, "sinf");
    near((double)sqrtl(2.0L), 1.4142135623730951, 1e-15, "sqrtl");
    FAILIF(floor(-2.5) != -3 || ceil(-2.5) != -2 || round(2.5) != 3 || trunc(-2.7) != -2 || lround(-2.5) != -3);
    FAILIF(rint(2.5) != 2.0 || nearbyint(3.5) != 4.0);            /* ties to even */
    fesetround(FE_UPWARD);
    FAILIF(rint(2.1) != 3.0);
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
    volatile double zero = 0.0, one = 1.0;
    volatile double inf = one / zero;
    FAILIF(!fetestexcept(FE_DIVBYZERO) || !isinf(inf));
    FAILIF(!isnan(sqrt(-one)) || !isfinite(DBL_MAX) || fpclassify(DBL_MIN / 4) != FP_SUBNORMAL);
    FAILIF(nextafter(1.0, 2.0) != 1.0 + DBL_EPSILON);
    int e; double m = frexp(48.0, &e);
    FAILIF(m != 0.75 || e != 6 || ldexp(0.75, 6) != 48.0);
    double ip; FAILIF(modf(3.25, &ip) != 0.25 || ip != 3.0);
    FAILIF(copysign(3.0, -0.0) != -3.0 || !signbit(-0.0));
    double complex c = cexp(I * M_PI);
    near(creal(c), -1.0, 1e-15, "cexp real");
    near(cimag(c), 0.0, 1e-15, "cexp imag");
    near(cabs(3.0 + 4.0 * I), 5.0, 0, "cabs");

    /* Simpson's rule for the integral of sin over [0, pi] = 2 */
    int n = 1000000; double h = M_PI / n, s = sin(0) + sin(M_PI);
    for (int i = 1; i < n; i++) s += sin(i * h) * (i % 2 ? 4 : 2);
    near(s * h / 3, 2.0, 1e-12, "simpson");
    /* Kahan summation of 0.1 ten million times */
    double sum = 0, comp = 0;
    for (int i = 0; i < 10000000; i++) { double y = 0.1 - comp, t = sum + y; comp = (t - sum) - y; sum = t; }
    near(sum, 1e6, 1e-6, "kahan");
    if (fails) { fprintf(stderr, "%d failures\n", fails); return 1; }
    printf("pi=%.15f e=%.15f\n", M_PI, M_E);
    puts("OK");
    return 0;
}

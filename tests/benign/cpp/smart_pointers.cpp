// Smart pointers: unique_ptr (arrays, custom deleters, ownership transfer), shared_ptr/weak_ptr
// (cycles broken with weak_ptr, aliasing, enable_shared_from_this), make_shared, pointer casts.
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

static int alive = 0;
struct Tracked {
    int id;
    explicit Tracked(int i) : id(i) { alive++; }
    virtual ~Tracked() { alive--; }
};
struct Derived : Tracked { using Tracked::Tracked; int extra = 9; };

struct Node {
    std::string name;
    std::vector<std::shared_ptr<Node>> children;
    std::weak_ptr<Node> parent;
    explicit Node(std::string n) : name(std::move(n)) { alive++; }
    ~Node() { alive--; }
};

struct Self : std::enable_shared_from_this<Self> { std::shared_ptr<Self> me() { return shared_from_this(); } };

static std::unique_ptr<Tracked> make(int i) { return std::make_unique<Tracked>(i); }

int main() {
    {
        auto u = make(1); CHECK(alive == 1 && u->id == 1);
        std::unique_ptr<Tracked> moved = std::move(u); CHECK(!u && moved);
        moved.reset(new Tracked(2)); CHECK(alive == 1 && moved->id == 2);
        Tracked *raw = moved.release(); CHECK(!moved && alive == 1); delete raw; CHECK(alive == 0);
        std::vector<std::unique_ptr<Tracked>> owners;
        for (int i = 0; i < 100; i++) owners.push_back(std::make_unique<Tracked>(i));
        CHECK(alive == 100);
        owners.erase(owners.begin(), owners.begin() + 50); CHECK(alive == 50);
    }
    CHECK(alive == 0);

    auto arr = std::make_unique<int[]>(1000);
    for (int i = 0; i < 1000; i++) arr[i] = i;
    CHECK(arr[999] == 999);

    {   // a custom deleter closing a FILE*
        std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen("deleter.txt", "w"), &std::fclose);
        CHECK(f != nullptr); std::fputs("closed by deleter\n", f.get());
    }
    std::remove("deleter.txt");
    int deleted = 0;
    { auto del = [&](int *p) { deleted++; delete p; }; std::unique_ptr<int, decltype(del)> p(new int(5), del); }
    CHECK(deleted == 1);

    {
        std::shared_ptr<Tracked> a = std::make_shared<Derived>(7);
        CHECK(a.use_count() == 1);
        std::shared_ptr<Tracked> b = a; CHECK(a.use_count() == 2);
        std::weak_ptr<Tracked> w = a; CHECK(!w.expired() && w.lock()->id == 7);
        auto d = std::dynamic_pointer_cast<Derived>(a); CHECK(d && d->extra == 9 && a.use_count() == 3);
        std::shared_ptr<int> alias(a, &d->extra); CHECK(*alias == 9 && a.use_count() == 4);
        a.reset(); b.reset(); d.reset(); CHECK(alive == 1 && !w.expired());
        alias.reset(); CHECK(alive == 0 && w.expired() && !w.lock());
    }

    {   // a tree with parent back-links as weak_ptr: no leak
        auto root = std::make_shared<Node>("root");
        for (int i = 0; i < 10; i++) {
            auto c = std::make_shared<Node>("child" + std::to_string(i));
            c->parent = root; root->children.push_back(c);
            for (int j = 0; j < 10; j++) { auto g = std::make_shared<Node>("g"); g->parent = c; c->children.push_back(g); }
        }
        CHECK(alive == 111 && root->children[3]->children[4]->parent.lock()->name == "child3");
    }
    CHECK(alive == 0);

    auto s = std::make_shared<Self>(); auto s2 = s->me(); CHECK(s.use_count() == 2 && s2 == s);
    std::shared_ptr<int[]> sa(new int[10]{}); sa[3] = 4; CHECK(sa[3] == 4);
    std::cout << "OK\n";
    return 0;
}

# Refinements and open classes: refine/using scope, refined methods not leaking, super from a refinement, core extensions via modules.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

module StringExt
  refine String do
    def shout = upcase + "!"
    def palindrome? = (s = downcase.delete("^a-z")) == s.reverse
    def to_s = "refined(#{super})"
  end
  refine Integer do
    def minutes = self * 60
    def even_digits? = digits.all?(&:even?)
  end
end

module Before
  def self.try_shout = ("x".shout rescue :not_visible)
end
check Before.try_shout == :not_visible, "refinement not active before using"

using StringExt
check "hello".shout == "HELLO!" && "A man, a plan, a canal: Panama".palindrome? && !"ruby".palindrome?, "refined String"
check 5.minutes == 300 && 2468.even_digits? && !123.even_digits?, "refined Integer"
check "x".to_s == "refined(x)", "super inside a refinement"
check Before.try_shout == :not_visible, "refinement is lexically scoped"
check %w[a b].map(&:shout) == %w[A! B!], "symbol to_proc sees refinements"
check !String.instance_methods.include?(:shout) && !String.method_defined?(:shout), "class untouched"

module Scoped
  module ArrayStats
    refine Array do
      def mean = sum.fdiv(size)
      def median = sort.then { |s| s.size.odd? ? s[s.size / 2] : (s[s.size / 2 - 1] + s[s.size / 2]) / 2.0 }
    end
  end
  using ArrayStats
  def self.stats(a) = [a.mean, a.median]
end
check Scoped.stats([1, 2, 3, 10]) == [4.0, 2.5], "refinement inside a module"
check ([1].mean rescue NoMethodError) == NoMethodError, "not visible outside its module"

# classic monkey patching versus a prepended module, restoring behaviour
class Greeter
  def hello = "hello"
end
module Polite
  def hello = super + ", please"
end
Greeter.prepend(Polite)
check Greeter.new.hello == "hello, please", "prepend"
class Greeter
  alias_method :plain_hello, :hello
  def wave = "*waves*"
end
check Greeter.new.wave == "*waves*" && Greeter.new.plain_hello == "hello, please", "reopen class"
Greeter.send(:remove_method, :wave)
check !Greeter.method_defined?(:wave), "remove_method"
module Kernel
  private def double_it(x) = x * 2
end
check double_it(21) == 42, "Kernel extension"
check Module.used_modules.include?(StringExt), "used_modules"
puts "OK"

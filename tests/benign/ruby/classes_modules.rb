# Classes, modules and mixins: inheritance, super, include/extend/prepend, method_missing, define_method, visibility.
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

module Greet
  def greet = "Hello from #{name}"
end
module Loud
  def greet = super.upcase + "!"
end
module Countable
  def self.included(base) = base.extend(ClassMethods)
  module ClassMethods
    def instances = @instances ||= 0
    def track! = @instances = instances + 1
  end
end

class Animal
  include Greet
  include Countable
  attr_reader :name
  attr_accessor :age
  @@kingdom = "animalia"
  SOUND = "..."
  def initialize(name, age = 1)
    @name, @age = name, age
    self.class.track!
  end
  def speak = "#{name} says #{self.class::SOUND}"
  def to_s = "#{self.class.name.downcase}:#{name}"
  def <=>(other) = age <=> other.age
  include Comparable
  def self.kingdom = @@kingdom
  protected def secret = 42
  private
  def hidden = :hidden
end

class Dog < Animal
  SOUND = "woof"
  prepend Loud
  def initialize(name, age = 3, trick: "sit")
    super(name, age)
    @trick = trick
  end
  def speak = super + " and does #{@trick}"
  def peek(other) = other.secret
end

class Cat < Animal
  SOUND = "meow"
end

d = Dog.new("Rex", trick: "roll")
c = Cat.new("Tom", 5)
check d.speak == "Rex says woof and does roll" && c.speak == "Tom says meow", "super and constants"
check d.greet == "HELLO FROM REX!" && c.greet == "Hello from Tom", "prepend/include"
check Dog.ancestors.take(4) == [Loud, Dog, Animal, Comparable], "ancestors #{Dog.ancestors.take(4)}"
check d.is_a?(Animal) && d.is_a?(Greet) && !c.is_a?(Dog) && Dog < Animal && Dog.superclass == Animal, "is_a?"
check d < c && [c, d].min == d && d.to_s == "dog:Rex" && "#{c}" == "cat:Tom", "Comparable/to_s"
check Dog.instances == 1 && Cat.instances == 1 && Animal.kingdom == "animalia", "class-level state"
check d.peek(c) == 42, "protected access"
check((d.secret rescue NoMethodError) == NoMethodError && (d.hidden rescue NoMethodError) == NoMethodError, "visibility")
check d.send(:hidden) == :hidden && d.respond_to?(:speak) && !d.respond_to?(:hidden), "send/respond_to?"
d.age += 1
check d.age == 4 && d.instance_variable_get(:@trick) == "roll" && d.instance_variables.sort == %i[@age @name @trick], "ivars"

# singleton methods, extend, class << self
obj = Object.new
def obj.special = :only_me
obj.extend(Greet)
obj.define_singleton_method(:name) { "obj" }
check obj.special == :only_me && obj.greet == "Hello from obj" && obj.singleton_methods(false).sort == %i[name special] && obj.singleton_class.include?(Greet), "singleton"

# metaprogramming
class Config
  def initialize = @data = {}
  %w[host port].each do |key|
    define_method(key) { @data[key] }
    define_method("#{key}=") { |v| @data[key] = v }
  end
  def method_missing(name, *args)
    return @data.fetch(name.to_s.delete_suffix("?")) { nil } ? true : false if name.end_with?("?")
    super
  end
  def respond_to_missing?(name, priv = false) = name.end_with?("?") || super
end
cfg = Config.new
cfg.host = "localhost"
check cfg.host == "localhost" && cfg.port.nil? && cfg.host? && !cfg.port? && cfg.respond_to?(:anything?), "define_method/method_missing"
check((cfg.bogus rescue NoMethodError) == NoMethodError, "method_missing falls back")
klass = Class.new(StandardError) { def message = "dynamic" }
check klass.new.message == "dynamic" && klass.name.nil?, "anonymous class"
Named = Class.new { attr_accessor :v }
check Named.name == "Named", "named by constant"
check Animal.instance_method(:speak).owner == Animal && Dog.method_defined?(:peek) && Dog.public_method_defined?(:greet), "reflection"
check Comparable.instance_of?(Module) && Dog.instance_of?(Class) && Dog.class == Class, "modules vs classes"
module Util
  module_function
  def double(x) = x * 2
end
check Util.double(4) == 8, "module_function"
check d.frozen? == false && d.dup.name == "Rex" && d.clone(freeze: true).frozen?, "dup/clone"
check d.public_send(:speak).start_with?("Rex") && d.method(:speak).arity == 0, "public_send/arity"
puts "OK"

# ObjectSpace and GC: counting objects, each_object, WeakMap/WeakRef, finalizers, GC.stat/start/compact, memory growth and release.
require "weakref"
require "objspace"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

class Widget; end
widgets = Array.new(100) { Widget.new }
check ObjectSpace.each_object(Widget).count >= 100, "each_object"
check ObjectSpace.each_object(Class).include?(Widget) && ObjectSpace.count_objects[:TOTAL] > 1000, "classes/count_objects"
check ObjectSpace.memsize_of("x" * 10_000) >= 10_000 && ObjectSpace.count_objects_size.is_a?(Hash), "memsize_of"
check ObjectSpace._id2ref(widgets.first.object_id).equal?(widgets.first), "_id2ref"

before = GC.count
GC.start(full_mark: true, immediate_sweep: true)
check GC.count > before && GC.stat[:count] == GC.count && GC.stat(:heap_live_slots) > 0, "GC.start/stat"
check GC.latest_gc_info.key?(:major_by) && GC.stress == false, "gc info"
GC.disable
check GC.disable == true, "GC.disable"
GC.enable
check GC.enable == false, "GC.enable"
GC.compact if GC.respond_to?(:compact)
check GC.stat[:compact_count].to_i >= 0, "compact"

wm = ObjectSpace::WeakMap.new
key = +"key"
wm[key] = Widget.new
check wm.key?(key) && wm[key].is_a?(Widget), "WeakMap"
ref = WeakRef.new(+"transient")
check ref.weakref_alive? && ref.size == 9, "WeakRef delegates"

reader, writer = IO.pipe
pid = fork do
  reader.close
  obj = Object.new
  ObjectSpace.define_finalizer(obj, proc { |id| writer.write("finalized #{id.is_a?(Integer)}") })
  obj = nil
  GC.start
  exit 0
end
writer.close
Process.wait(pid)
check reader.read == "finalized true", "finalizer runs at exit at the latest"

# allocate ~40 MB in strings, drop them, collect
rss = -> { File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i }
r0 = rss.call
big = Array.new(40) { "x" * 1_000_000 }
r1 = rss.call
check r1 - r0 > 30_000 && big.sum(&:bytesize) == 40_000_000, "memory grows (#{r0} -> #{r1} kB)"
big = nil
GC.start
check GC.stat[:heap_live_slots] > 0, "after release"
allocs = GC.stat(:total_allocated_objects)
1000.times { Object.new }
check GC.stat(:total_allocated_objects) - allocs >= 1000, "allocation counter"
check ObjectSpace.trace_object_allocations { Object.new }.then { ObjectSpace.allocation_sourcefile(_1) }.to_s.end_with?(".rb"), "allocation tracing"
check ObjectSpace.garbage_collect.nil? && ObjectSpace.respond_to?(:each_object), "garbage_collect"
puts "OK"

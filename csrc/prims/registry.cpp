#include "prims/registry.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "backends/cpu/simd/kernel_table.h"
#include "core/error.h"

namespace mnn::prims {

namespace {

constexpr int kIsaLevels = 3;

// Function-local statics: registrations run during static initialisation of other files, in an
// order the linker chooses, so the tables must exist before their first use.
struct Tables {
  std::mutex mu;
  std::vector<std::unique_ptr<Primitive>> prims;  // stable addresses
  std::map<std::string, int> by_name;
  std::map<std::string, std::unique_ptr<CpuPrepareFn>> cpu[kIsaLevels];
};
Tables& tables() {
  static Tables* t = new Tables();
  return *t;
}

}  // namespace

int register_primitive(Primitive p) {
  auto& t = tables();
  std::lock_guard<std::mutex> lock(t.mu);
  if (t.by_name.count(p.name)) throw std::logic_error("primitive registered twice: " + p.name);
  p.id = static_cast<int>(t.prims.size());
  t.by_name[p.name] = p.id;
  t.prims.push_back(std::make_unique<Primitive>(std::move(p)));
  return t.prims.back()->id;
}

const Primitive& primitive(int id) {
  auto& t = tables();
  if (id < 0 || id >= static_cast<int>(t.prims.size()))
    throw core::ValueError("[mnn.engine] unknown primitive id " + std::to_string(id));
  return *t.prims[id];
}

const Primitive* find_primitive(const std::string& name) {
  auto& t = tables();
  auto it = t.by_name.find(name);
  return it == t.by_name.end() ? nullptr : t.prims[it->second].get();
}

core::Params user_params(const core::Params& p) {
  core::Params u;
  if (!p.ints.empty()) u.ints.assign(p.ints.begin() + 1, p.ints.end());
  u.floats = p.floats;
  return u;
}

int register_cpu_kernel(const std::string& name, CpuPrepareFn fn, int isa_level) {
  auto& t = tables();
  std::lock_guard<std::mutex> lock(t.mu);
  if (isa_level < 0 || isa_level >= kIsaLevels) throw std::logic_error("bad isa level for kernel " + name);
  auto& table = t.cpu[isa_level];
  if (table.count(name)) throw std::logic_error("cpu kernel registered twice: " + name);
  table[name] = std::make_unique<CpuPrepareFn>(std::move(fn));
  return static_cast<int>(table.size());
}

const CpuPrepareFn* find_cpu_kernel(const std::string& name, int max_isa_level) {
  auto& t = tables();
  for (int level = std::min(max_isa_level, kIsaLevels - 1); level >= 0; --level) {
    auto it = t.cpu[level].find(name);
    if (it != t.cpu[level].end()) return it->second.get();
  }
  return nullptr;
}

const CpuPrepareFn* find_cpu_kernel(const std::string& name) {
  return find_cpu_kernel(name, cpu::isa_level(cpu::active_isa()));
}

}  // namespace mnn::prims

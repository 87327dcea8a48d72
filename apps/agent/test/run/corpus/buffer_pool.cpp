// A caching allocator in the style of framework pools: blocks kept in a std::vector free list,
// reused by size, all returned in the destructor; CHECK that throws.
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <vector>
#include "common.h"

#define CHECK_THROW(expr)                                                     \
  do {                                                                        \
    aclError r_ = (expr);                                                     \
    if (r_ != ACL_SUCCESS) throw std::runtime_error(#expr);                   \
  } while (0)

namespace {

class DevicePool {
 public:
  ~DevicePool() {
    for (auto &entry : free_)
      for (void *block : entry.second) aclrtFree(block);
  }
  void *take(size_t bytes) {
    size_t rounded = (bytes + kUnit - 1) / kUnit * kUnit;
    auto &list = free_[rounded];
    if (!list.empty()) {
      void *block = list.back();
      list.pop_back();
      reused_++;
      return block;
    }
    void *block = nullptr;
    CHECK_THROW(aclrtMalloc(&block, rounded, ACL_MEM_MALLOC_HUGE_FIRST));
    sizes_[block] = rounded;
    return block;
  }
  void give(void *block) { free_[sizes_.at(block)].push_back(block); }
  int reused() const { return reused_; }

 private:
  static constexpr size_t kUnit = 512 * 1024;
  std::map<size_t, std::vector<void *>> free_;
  std::map<void *, size_t> sizes_;
  int reused_ = 0;
};

}  // namespace

int main() {
  try {
    CHECK_THROW(aclInit(nullptr));
    CHECK_THROW(aclrtSetDevice(0));
    {
      DevicePool pool;
      std::vector<void *> live;
      for (int step = 0; step < 50; step++) {
        size_t bytes = static_cast<size_t>(1 + step % 7) * 300 * 1024;
        void *block = pool.take(bytes);
        std::vector<int> values(bytes / sizeof(int), step);
        CHECK_THROW(aclrtMemcpy(block, bytes, values.data(), values.size() * sizeof(int), ACL_MEMCPY_HOST_TO_DEVICE));
        std::vector<int> back(values.size(), -1);
        CHECK_THROW(aclrtMemcpy(back.data(), back.size() * sizeof(int), block, back.size() * sizeof(int), ACL_MEMCPY_DEVICE_TO_HOST));
        EXPECT(back == values);
        live.push_back(block);
        if (live.size() > 3) {
          pool.give(live.front());
          live.erase(live.begin());
        }
      }
      for (void *block : live) pool.give(block);
      EXPECT(pool.reused() > 20);
    }
    CHECK_THROW(aclrtResetDevice(0));
    CHECK_THROW(aclFinalize());
  } catch (const std::exception &error) {
    std::fprintf(stderr, "buffer_pool: %s\n", error.what());
    return 1;
  }
  std::printf("buffer_pool: PASS\n");
  return 0;
}

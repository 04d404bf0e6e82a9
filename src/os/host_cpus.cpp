#include "os/host_cpus.hpp"

#include <sched.h>
#include <unistd.h>

namespace gpupack {

HostCpus host_cpus() {
  HostCpus h;
  if (const long online = ::sysconf(_SC_NPROCESSORS_ONLN); online > 0) h.online = static_cast<int>(online);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    if (const int usable = CPU_COUNT(&set); usable > 0) h.usable = usable;
  }
  return h;
}

}  // namespace gpupack

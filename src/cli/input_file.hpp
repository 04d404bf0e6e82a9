#pragma once
// The commands read their input files through the one bounded reader of the io layer.
#include "io/input_file.hpp"

#include "receipt.h"

/* Armada's Global Arrays C API: the part of GA 5.8's ga-wapi.h (GA's internal "wnga_" layer,
 * with Fortran's Integer arguments) that applications read. NWChem's makefiles look in this
 * header for wnga_set_property to decide whether GA can mark an array read-only
 * (-DHAVE_SET_GA_PROPERTY); the functions declared here exist and do what GA's do. GA's other
 * wnga_ functions are GA's implementation, not its API, and are not part of Armada. */
#ifndef ARMADA_GA_WAPI_H
#define ARMADA_GA_WAPI_H

#include "gacommon.h"
#include "typesf2c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GA_Set_property / GA_Unset_property of handle g_a ("read_only", "read_cache"). */
extern void wnga_set_property(Integer g_a, char* property);
extern void wnga_unset_property(Integer g_a);

#ifdef __cplusplus
}
#endif

#endif

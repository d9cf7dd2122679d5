/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 88acd5bb4987fbb9a7c7a5d5217ff10dda77cc00 */

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_Async_signal, 0, 1, Async\\Future, 0)
	ZEND_ARG_OBJ_INFO(0, signal, Async\\Signal, 0)
	ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(0, cancellation, Async\\Completable, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_available_parallelism, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_runtime_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_Async_cpu_usage arginfo_Async_runtime_stats

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_Async_loadavg, 0, 0, IS_ARRAY, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Async_CpuSnapshot___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Async_CpuSnapshot_now, 0, 0, Async\\CpuSnapshot, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(Async_signal);
ZEND_FUNCTION(Async_available_parallelism);
ZEND_FUNCTION(Async_runtime_stats);
ZEND_FUNCTION(Async_cpu_usage);
ZEND_FUNCTION(Async_loadavg);
ZEND_METHOD(Async_CpuSnapshot, __construct);
ZEND_METHOD(Async_CpuSnapshot, now);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("Async", signal, Async_signal, arginfo_Async_signal)
	ZEND_NS_FALIAS("Async", available_parallelism, Async_available_parallelism, arginfo_Async_available_parallelism)
	ZEND_NS_FALIAS("Async", runtime_stats, Async_runtime_stats, arginfo_Async_runtime_stats)
	ZEND_NS_FALIAS("Async", cpu_usage, Async_cpu_usage, arginfo_Async_cpu_usage)
	ZEND_NS_FALIAS("Async", loadavg, Async_loadavg, arginfo_Async_loadavg)
	ZEND_FE_END
};


static const zend_function_entry class_Async_Signal_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Async_CpuSnapshot_methods[] = {
	ZEND_ME(Async_CpuSnapshot, __construct, arginfo_class_Async_CpuSnapshot___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Async_CpuSnapshot, now, arginfo_class_Async_CpuSnapshot_now, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Async_Signal(void)
{
	zend_class_entry *class_entry = zend_register_internal_enum("Async\\Signal", IS_LONG, class_Async_Signal_methods);

	zval enum_case_SIGHUP_value;
	ZVAL_LONG(&enum_case_SIGHUP_value, 1);
	zend_enum_add_case_cstr(class_entry, "SIGHUP", &enum_case_SIGHUP_value);

	zval enum_case_SIGINT_value;
	ZVAL_LONG(&enum_case_SIGINT_value, 2);
	zend_enum_add_case_cstr(class_entry, "SIGINT", &enum_case_SIGINT_value);

	zval enum_case_SIGQUIT_value;
	ZVAL_LONG(&enum_case_SIGQUIT_value, 3);
	zend_enum_add_case_cstr(class_entry, "SIGQUIT", &enum_case_SIGQUIT_value);

	zval enum_case_SIGILL_value;
	ZVAL_LONG(&enum_case_SIGILL_value, 4);
	zend_enum_add_case_cstr(class_entry, "SIGILL", &enum_case_SIGILL_value);

	zval enum_case_SIGABRT_value;
	ZVAL_LONG(&enum_case_SIGABRT_value, 6);
	zend_enum_add_case_cstr(class_entry, "SIGABRT", &enum_case_SIGABRT_value);

	zval enum_case_SIGFPE_value;
	ZVAL_LONG(&enum_case_SIGFPE_value, 8);
	zend_enum_add_case_cstr(class_entry, "SIGFPE", &enum_case_SIGFPE_value);

	zval enum_case_SIGKILL_value;
	ZVAL_LONG(&enum_case_SIGKILL_value, 9);
	zend_enum_add_case_cstr(class_entry, "SIGKILL", &enum_case_SIGKILL_value);

	zval enum_case_SIGUSR1_value;
	ZVAL_LONG(&enum_case_SIGUSR1_value, 10);
	zend_enum_add_case_cstr(class_entry, "SIGUSR1", &enum_case_SIGUSR1_value);

	zval enum_case_SIGSEGV_value;
	ZVAL_LONG(&enum_case_SIGSEGV_value, 11);
	zend_enum_add_case_cstr(class_entry, "SIGSEGV", &enum_case_SIGSEGV_value);

	zval enum_case_SIGUSR2_value;
	ZVAL_LONG(&enum_case_SIGUSR2_value, 12);
	zend_enum_add_case_cstr(class_entry, "SIGUSR2", &enum_case_SIGUSR2_value);

	zval enum_case_SIGTERM_value;
	ZVAL_LONG(&enum_case_SIGTERM_value, 15);
	zend_enum_add_case_cstr(class_entry, "SIGTERM", &enum_case_SIGTERM_value);

	zval enum_case_SIGBREAK_value;
	ZVAL_LONG(&enum_case_SIGBREAK_value, 21);
	zend_enum_add_case_cstr(class_entry, "SIGBREAK", &enum_case_SIGBREAK_value);

	zval enum_case_SIGABRT2_value;
	ZVAL_LONG(&enum_case_SIGABRT2_value, 22);
	zend_enum_add_case_cstr(class_entry, "SIGABRT2", &enum_case_SIGABRT2_value);

	zval enum_case_SIGWINCH_value;
	ZVAL_LONG(&enum_case_SIGWINCH_value, 28);
	zend_enum_add_case_cstr(class_entry, "SIGWINCH", &enum_case_SIGWINCH_value);

	return class_entry;
}

static zend_class_entry *register_class_Async_CpuSnapshot(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Async", "CpuSnapshot", class_Async_CpuSnapshot_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval property_wallNs_default_value;
	ZVAL_UNDEF(&property_wallNs_default_value);
	zend_string *property_wallNs_name = zend_string_init("wallNs", sizeof("wallNs") - 1, 1);
	zend_declare_typed_property(class_entry, property_wallNs_name, &property_wallNs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_wallNs_name);

	zval property_processUserNs_default_value;
	ZVAL_UNDEF(&property_processUserNs_default_value);
	zend_string *property_processUserNs_name = zend_string_init("processUserNs", sizeof("processUserNs") - 1, 1);
	zend_declare_typed_property(class_entry, property_processUserNs_name, &property_processUserNs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_processUserNs_name);

	zval property_processSystemNs_default_value;
	ZVAL_UNDEF(&property_processSystemNs_default_value);
	zend_string *property_processSystemNs_name = zend_string_init("processSystemNs", sizeof("processSystemNs") - 1, 1);
	zend_declare_typed_property(class_entry, property_processSystemNs_name, &property_processSystemNs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_processSystemNs_name);

	zval property_systemIdleNs_default_value;
	ZVAL_UNDEF(&property_systemIdleNs_default_value);
	zend_string *property_systemIdleNs_name = zend_string_init("systemIdleNs", sizeof("systemIdleNs") - 1, 1);
	zend_declare_typed_property(class_entry, property_systemIdleNs_name, &property_systemIdleNs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_systemIdleNs_name);

	zval property_systemBusyNs_default_value;
	ZVAL_UNDEF(&property_systemBusyNs_default_value);
	zend_string *property_systemBusyNs_name = zend_string_init("systemBusyNs", sizeof("systemBusyNs") - 1, 1);
	zend_declare_typed_property(class_entry, property_systemBusyNs_name, &property_systemBusyNs_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_systemBusyNs_name);

	zval property_cpuCount_default_value;
	ZVAL_UNDEF(&property_cpuCount_default_value);
	zend_string *property_cpuCount_name = zend_string_init("cpuCount", sizeof("cpuCount") - 1, 1);
	zend_declare_typed_property(class_entry, property_cpuCount_name, &property_cpuCount_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_cpuCount_name);

	return class_entry;
}

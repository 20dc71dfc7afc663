CREATE TRIGGER sales_order_report_rows_on_insert AFTER INSERT ON sales_order FOR EACH ROW EXECUTE FUNCTION sales_order_report_rows_sync();

CREATE TRIGGER sales_order_report_rows_on_update AFTER UPDATE OF status, created_at, total, totals, vat_breakdown ON sales_order FOR EACH ROW EXECUTE FUNCTION sales_order_report_rows_sync();
